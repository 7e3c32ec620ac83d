import HapticsAudio
import HapticsSystem

/// When each frame of a capture stream arrived: the arithmetic of ``ALSACaptureStream``'s timeline,
/// apart from the device so that it can be tested without one.
///
/// Each reading gives the instant capture position 0 arrived at (its *origin*). A pointer only lags,
/// so within a stretch without loss the earliest origin is the truth. A reading later than its
/// segment's origin by more than the tolerance, or the first after a restart of the device, starts
/// a new segment at the frames it read; each segment keeps the earliest origin of its own readings,
/// and a segment not begun at a restart whose origin comes back to its predecessor's (a laggy
/// reading, not lost frames) is joined to it again.
struct _CaptureTimeline {
    /// One stretch of frames captured without loss.
    struct Segment: Hashable {
        /// Its first frame.
        var frame: Int
        /// The earliest origin of its readings, in nanoseconds.
        var origin: Int64
        /// Whether it began at a restart of the device (frames were lost for certain).
        var restart: Bool
    }

    let sampleRate: Int
    /// Nanoseconds a reading's origin may lie after its segment's before it starts a new one.
    let tolerance: Int64
    private(set) var segments: [Segment] = []

    init(sampleRate: Int, tolerance: Int64) {
        self.sampleRate = sampleRate
        self.tolerance = tolerance
    }

    /// Takes a reading's origin for the frames from `firstFrame` on.
    mutating func observe(origin: Int64, firstFrame: Int, afterRestart: Bool) {
        guard let last = segments.last else {
            segments.append(Segment(frame: 0, origin: origin, restart: false))
            return
        }
        if afterRestart || origin - last.origin > tolerance {
            segments.append(Segment(frame: firstFrame, origin: origin, restart: afterRestart))
            return
        }
        segments[segments.count - 1].origin = min(last.origin, origin)
        if segments.count >= 2, !segments[segments.count - 1].restart,
           abs(segments[segments.count - 1].origin - segments[segments.count - 2].origin) <= tolerance {
            segments[segments.count - 2].origin = min(segments[segments.count - 2].origin, segments[segments.count - 1].origin)
            segments.removeLast()
        }
    }

    private func nanoseconds(_ frames: Int) -> Int64 { Int64(frames) * 1_000_000_000 / Int64(sampleRate) }

    /// When `frame` arrived, by the origin of its segment; `nil` before the first reading.
    func instant(ofFrame frame: Int) -> MonotonicInstant? {
        guard let segment = segments.last(where: { $0.frame <= frame }) else { return nil }
        return MonotonicInstant(nanoseconds: segment.origin + nanoseconds(frame))
    }

    /// The time between consecutive segments, in order.
    var gaps: [ALSACaptureStream.Gap] {
        zip(segments, segments.dropFirst()).map { previous, next in
            ALSACaptureStream.Gap(frame: next.frame, start: MonotonicInstant(nanoseconds: previous.origin + nanoseconds(next.frame)),
                                  duration: .nanoseconds(next.origin - previous.origin))
        }
    }

    /// The frames, of the first `count` captured, that arrived from `from` (the frame arriving
    /// then) until `until`: one range per segment that has any, in order. Time in a gap has none.
    func frames(from: MonotonicInstant, until: MonotonicInstant, count: Int) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        for (index, segment) in segments.enumerated() {
            let end = min(count, index + 1 < segments.count ? segments[index + 1].frame : count)
            func frame(_ instant: MonotonicInstant) -> Int {
                let frames = (instant.nanoseconds - segment.origin) * Int64(sampleRate) / 1_000_000_000
                return Int(min(max(frames, Int64(segment.frame)), Int64(max(end, segment.frame))))
            }
            let first = frame(from)
            let last = frame(until)
            if first < last { ranges.append(first..<last) }
        }
        return ranges
    }
}
