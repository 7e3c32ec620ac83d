import Testing
@testable import HapticsMeasurement
import HapticsSystem

/// The capture timeline the sync test times sounds with: frames lost while its reader was behind
/// must not shift the instants of the frames after them, and a laggy reading must not split it.
@Suite struct CaptureTimelineTests {
    // 48 kHz, 256-frame reads; tolerance 10.67 ms (two periods).
    var timeline = _CaptureTimeline(sampleRate: 48_000, tolerance: 10_666_666)
    let origin: Int64 = 1_000_000_000

    /// One reading per 256 frames from `first`, each with `lag` on top of `origin`.
    mutating func read(_ reads: Range<Int>, origin: Int64, lag: Int64 = 0, afterRestart: Bool = false) {
        for read in reads {
            timeline.observe(origin: origin + lag, firstFrame: read * 256, afterRestart: afterRestart && read == reads.lowerBound)
        }
    }

    @Test mutating func framesLostWithoutAnOverrunKeepTheInstantsOfTheFramesAfterThem() {
        // Ten reads, then 8 192 frames (170.67 ms) the device overwrote unseen: the readings from
        // frame 2 560 on put position 0 that much later.
        read(0..<10, origin: origin)
        read(10..<20, origin: origin + 170_666_667)
        #expect(timeline.gaps == [ALSACaptureStream.Gap(frame: 2_560, start: MonotonicInstant(nanoseconds: origin + 53_333_333),
                                                        duration: .nanoseconds(170_666_667))])
        #expect(timeline.instant(ofFrame: 100) == MonotonicInstant(nanoseconds: origin + 2_083_333))
        #expect(timeline.instant(ofFrame: 2_560) == MonotonicInstant(nanoseconds: origin + 170_666_667 + 53_333_333))
        // A search across the gap looks at the frames on either side of it, never into it.
        let from = MonotonicInstant(nanoseconds: origin + 50_000_000)
        let until = MonotonicInstant(nanoseconds: origin + 230_666_667)
        #expect(timeline.frames(from: from, until: until, count: 5_120) == [2_400..<2_560, 2_560..<2_880])
    }

    @Test mutating func aLaggyReadingIsJoinedAgainAndTheEarliestOriginHolds() {
        read(0..<5, origin: origin, lag: 200_000)
        read(5..<6, origin: origin, lag: 12_000_000)     // more than the tolerance: a new segment…
        #expect(timeline.segments.count == 2)
        read(6..<10, origin: origin)                     // …which the next readings bring back
        #expect(timeline.gaps == [])
        #expect(timeline.segments == [_CaptureTimeline.Segment(frame: 0, origin: origin, restart: false)])
    }

    @Test mutating func aRestartAlwaysStartsASegmentEvenAFewMillisecondsLater() {
        read(0..<5, origin: origin)
        read(5..<10, origin: origin + 3_000_000, afterRestart: true)
        #expect(timeline.gaps == [ALSACaptureStream.Gap(frame: 1_280, start: MonotonicInstant(nanoseconds: origin + 26_666_666),
                                                        duration: .milliseconds(3))])
        #expect(timeline.instant(ofFrame: 1_280) == MonotonicInstant(nanoseconds: origin + 3_000_000 + 26_666_666))
    }
}
