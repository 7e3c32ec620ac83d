import HapticsAudio
import HapticsSystem
import Synchronization

/// Drive samples handed from a game's audio thread to a voice-coil stream's writer, each block
/// with the instant its first sample plays on `CLOCK_MONOTONIC`, and the track the writer places
/// them on, frame by frame.
///
/// Two stages. The **queue** is single-producer, single-consumer and lock-free: ``push(_:at:)``
/// (the feeding thread) copies the samples and a header into fixed rings and publishes them with
/// one release store; it refuses a block that does not fit, whole. The **track** belongs to the
/// consumer (the stream's writer): each ``drain(frameOf:)`` places the queued blocks on the
/// stream's frames, the first frame being the one the stream plays at the block's instant (a
/// block that starts within ``snapFrames`` of where the last one ended continues it exactly, so
/// rounding the instants never leaves a gap or a doubled frame). The track keeps the last
/// `trackCapacity` frames placed, silence where no block fell, so a writer may read a frame again
/// (a stream that takes frames back from the card and writes them again reads the same samples).
///
/// ``requestFlush()`` (any thread) discards every block pushed before it and empties the track at
/// the consumer's next drain: nothing fed before a stop plays after it.
final class _LiveDriveRing: @unchecked Sendable {
    /// Frames per second of the samples.
    let sampleRate: Int
    /// How far (in frames) a block's placed start may lie from the end of the block before it
    /// and still continue it: 0.5 ms, at least one frame.
    let snapFrames: Int64

    // The queue: samples and headers, both rings of a power-of-two size.
    private let samples: UnsafeMutablePointer<Float>
    private let sampleMask: Int
    private let headers: UnsafeMutablePointer<(instant: Int64, count: Int)>
    private let headerMask: Int
    private let samplesWritten = Atomic<Int>(0)
    private let headersWritten = Atomic<Int>(0)
    private let samplesRead = Atomic<Int>(0)
    private let headersRead = Atomic<Int>(0)
    /// Blocks whose header index is below it are discarded (``requestFlush()``).
    private let flushBelow = Atomic<Int>(0)
    private let refusedBlocks = Atomic<Int>(0)
    private let lateFrames = Atomic<Int>(0)

    // The track: touched by the consumer only.
    private let track: UnsafeMutablePointer<Float>
    private let trackMask: Int64
    /// The frame after the last one placed; `nil` while the track is empty.
    private var trackEnd: Int64?
    /// The first frame placed since the track was empty: frames before it read as silence.
    private var trackStart: Int64 = 0
    /// Where the last block placed ended, for the next one to continue it.
    private var lastBlockEnd: Int64?
    /// The frame after the last one mixed.
    private var mixedEnd: Int64 = .min
    /// The first frame placed and not mixed yet, if any.
    private var unmixedStart: Int64?
    private var flushedBelow = 0

    /// A ring for samples at `sampleRate`: room for `queueCapacity` samples (rounded up to a power
    /// of two) in at most 256 blocks, a track of `trackCapacity` frames (rounded up likewise).
    init(sampleRate: Int, queueCapacity: Int, trackCapacity: Int) {
        self.sampleRate = sampleRate
        snapFrames = Int64(max(1, sampleRate / 2_000))
        let queue = Self.powerOfTwo(atLeast: queueCapacity)
        samples = .allocate(capacity: queue)
        samples.initialize(repeating: 0, count: queue)
        sampleMask = queue - 1
        headers = .allocate(capacity: 256)
        headers.initialize(repeating: (0, 0), count: 256)
        headerMask = 255
        let frames = Self.powerOfTwo(atLeast: trackCapacity)
        track = .allocate(capacity: frames)
        track.initialize(repeating: 0, count: frames)
        trackMask = Int64(frames - 1)
    }

    deinit {
        samples.deallocate()
        headers.deallocate()
        track.deallocate()
    }

    private static func powerOfTwo(atLeast count: Int) -> Int {
        var size = 1
        while size < count { size <<= 1 }
        return size
    }

    /// Blocks refused because the queue was full.
    var refused: Int { refusedBlocks.load(ordering: .relaxed) }
    /// Frames that arrived for a place the writer had passed already: not played.
    var late: Int { lateFrames.load(ordering: .relaxed) }

    // MARK: Producer (one thread)

    /// Queues `block`, whose first sample plays at `instant`. Lock-free, allocation-free; `false`
    /// (and nothing queued) when the queue has no room for the whole block.
    func push(_ block: UnsafeBufferPointer<Float>, at instant: MonotonicInstant) -> Bool {
        guard !block.isEmpty else { return true }
        let written = samplesWritten.load(ordering: .relaxed)
        let headerIndex = headersWritten.load(ordering: .relaxed)
        guard block.count <= sampleMask + 1 - (written - samplesRead.load(ordering: .acquiring)),
              headerIndex - headersRead.load(ordering: .acquiring) <= headerMask
        else {
            refusedBlocks.add(1, ordering: .relaxed)
            return false
        }
        for index in 0..<block.count { samples[(written + index) & sampleMask] = block[index] }
        headers[headerIndex & headerMask] = (instant.nanoseconds, block.count)
        samplesWritten.store(written + block.count, ordering: .relaxed)
        headersWritten.store(headerIndex + 1, ordering: .releasing)
        return true
    }

    // MARK: Any thread

    /// Discards every block pushed so far and empties the track, at the consumer's next drain.
    func requestFlush() {
        let below = headersWritten.load(ordering: .acquiring)
        var current = flushBelow.load(ordering: .relaxed)
        while current < below {
            let (exchanged, original) = flushBelow.compareExchange(expected: current, desired: below, ordering: .releasing)
            if exchanged { return }
            current = original
        }
    }

    // MARK: Consumer (the stream's writer, one at a time)

    /// Places every queued block on the track (after a flush asked for, the blocks before it are
    /// dropped and the track emptied). `frameOf` gives the stream frame that plays at an instant
    /// (nanoseconds of `CLOCK_MONOTONIC`).
    func drain(frameOf: (Int64) -> Int64) {
        var samplesIndex = samplesRead.load(ordering: .relaxed)
        var headerIndex = headersRead.load(ordering: .relaxed)
        let flush = flushBelow.load(ordering: .acquiring)
        if flush > flushedBelow {
            while headerIndex < flush {
                samplesIndex += headers[headerIndex & headerMask].count
                headerIndex += 1
            }
            flushedBelow = flush
            trackEnd = nil
            lastBlockEnd = nil
            unmixedStart = nil
        }
        let published = headersWritten.load(ordering: .acquiring)
        while headerIndex < published {
            let header = headers[headerIndex & headerMask]
            var frame = frameOf(header.instant)
            if let end = lastBlockEnd, abs(frame - end) <= snapFrames { frame = end }
            place(from: samplesIndex, count: header.count, at: frame)
            samplesIndex += header.count
            headerIndex += 1
        }
        samplesRead.store(samplesIndex, ordering: .releasing)
        headersRead.store(headerIndex, ordering: .releasing)
    }

    private func place(from sampleIndex: Int, count: Int, at frame: Int64) {
        let capacity = trackMask + 1
        let end = frame + Int64(count)
        lastBlockEnd = end
        if frame < mixedEnd { lateFrames.add(Int(min(end, mixedEnd) - frame), ordering: .relaxed) }
        if trackEnd == nil { trackStart = frame }
        var filled = trackEnd ?? frame
        // Silence where no block fell, after the track's end or before its start.
        if frame > filled {
            for silent in max(filled, frame - capacity)..<frame { track[Int(silent & trackMask)] = 0 }
            filled = frame
        }
        let newEnd = max(filled, end)
        let oldest = newEnd - capacity
        if frame < trackStart {
            for silent in max(frame, oldest)..<max(max(frame, oldest), trackStart) { track[Int(silent & trackMask)] = 0 }
            trackStart = frame
        }
        // Frames older than the track holds after this block are not kept.
        for offset in min(count, max(0, Int(oldest - frame)))..<count {
            track[Int((frame + Int64(offset)) & trackMask)] = samples[(sampleIndex + offset) & sampleMask]
        }
        trackEnd = newEnd
        if end > mixedEnd { unmixedStart = min(unmixedStart ?? .max, max(frame, mixedEnd)) }
    }

    /// Whether nothing is queued and nothing placed at `frame` or later is still to play
    /// (`Int64.max`: whether nothing is queued).
    func isIdle(after frame: Int64) -> Bool {
        guard headersRead.load(ordering: .acquiring) == headersWritten.load(ordering: .acquiring) else { return false }
        return frame == .max || (trackEnd ?? .min) <= frame
    }

    /// Forgets where the track's frames lie: the stream counts its frames afresh (its card was
    /// opened again). What was placed is not played.
    func renumber() {
        trackEnd = nil
        trackStart = 0
        lastBlockEnd = nil
        mixedEnd = .min
        unmixedStart = nil
    }

    /// Gives up the frames placed before `frame` and not mixed yet (a writer too late for them):
    /// they count as late.
    func skip(to frame: Int64) {
        guard let start = unmixedStart, start < frame, let end = trackEnd else { return }
        lateFrames.add(Int(min(frame, end) - start), ordering: .relaxed)
        mixedEnd = max(mixedEnd, frame)
        unmixedStart = end > frame ? frame : nil
    }

    /// The first frame from `frame` on that holds a placed sample not mixed yet, if any.
    func nextUnmixedFrame(from frame: Int64) -> Int64? {
        guard let start = unmixedStart, let end = trackEnd, max(start, frame) < end else { return nil }
        return max(start, frame)
    }

    /// Adds the track's frames `from ..< from + count` to `destination`: frame `from + i` to the
    /// samples at `i × stride + first` and `i × stride + second` (the same one when equal).
    func mix(into destination: UnsafeMutablePointer<Float>, from: Int64, count: Int, stride: Int = 1, first: Int = 0, second: Int = 0) {
        if let end = trackEnd {
            let start = max(trackStart, end - trackMask - 1)
            for index in 0..<count {
                let frame = from + Int64(index)
                guard frame >= start && frame < end else { continue }
                let sample = track[Int(frame & trackMask)]
                destination[index * stride + first] += sample
                if second != first { destination[index * stride + second] += sample }
            }
        }
        mixedEnd = max(mixedEnd, from + Int64(count))
        if let start = unmixedStart, start < mixedEnd {
            unmixedStart = (trackEnd ?? .min) > mixedEnd ? mixedEnd : nil
        }
    }
}

extension USBHapticsStream {
    /// Queues drive samples for the actuators (both play them), at 48 kHz, the first one playing
    /// at `instant` on `CLOCK_MONOTONIC`. Each block is placed on the frame the card plays at its
    /// instant, as a pattern's first frame is (a block that starts where the last one ended
    /// continues it exactly), and added to the pattern playing (the sum clipped to ±1): a pattern
    /// is a designed effect and the sound's drive another source, and both are wanted, as
    /// overlapping events of a pattern add up. Samples for frames written already are not played,
    /// so the drive stays in step with its sound: feed them at least the card's buffer ahead (the
    /// stream writes each frame that long before it plays). ``stop()``
    /// discards what was fed before it. Lock-free and allocation-free: call it from one thread,
    /// the game's audio thread. Returns `false` when the queue (1 s, 256 blocks) has no room for
    /// them: nothing was queued.
    public func feed(_ samples: UnsafeBufferPointer<Float>, at instant: MonotonicInstant) -> Bool {
        let pushed = live.push(samples, at: instant)
        // A stream that closed its card for want of anything to play opens it again.
        if isSuspended { wake() }
        return pushed
    }

    /// Blocks of drive samples refused because the queue was full, and frames that came for a
    /// period written already (not played).
    public var liveSamplesDropped: (blocks: Int, lateFrames: Int) { (live.refused, live.late) }

    /// Discards the drive samples fed so far, from the next period written; a pattern playing
    /// goes on. Lock-free.
    public func discardFedSamples() {
        live.requestFlush()
    }

    /// The queued drive samples added to `period` (`frames` frames from stream position `first`,
    /// four channels), on channels 2 and 3; nothing while the stream's timing is unknown (`origin`).
    func mixLive(into period: UnsafeMutablePointer<Float>, frames: Int, first: Int64, format: AudioStreamFormat, origin: Int64?) {
        guard let origin else { return }
        live.drain { format.frames(nanoseconds: $0 - origin) }
        live.mix(into: period, from: first, count: frames, stride: format.channelCount,
                 first: VoiceCoilFrames.usbLeftChannel, second: VoiceCoilFrames.usbRightChannel)
    }
}
