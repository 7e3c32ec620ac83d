import HapticsPatterns
import HapticsSystem
import HapticsTriggers

/// HD haptics over Bluetooth: plays patterns on a DualSense's voice coils by writing report 0x32
/// (``DualSenseHapticsReport``) to its hidraw node, one report per 32 frames of 3 kHz (≈ 10.7 ms).
///
/// ```swift
/// let haptics = try BluetoothHapticsStream(eventNode: "/dev/input/event5")
/// try haptics.play(pattern, at: .now)
/// ```
///
/// ``play(_:at:)`` lays the pattern out (``WaveformRenderer``) on the calling thread and hands it
/// to a writer thread of the stream's own, which writes report *n* at `instant + n × 32 / 3000 s`
/// on `CLOCK_MONOTONIC`, the engine's clock, and stops after the pattern's last frame. A play
/// replaces the one before it. ``stop()`` returns once nothing more will be written; the pad falls
/// silent when its last report has played. Reports are numbered on for as long as the stream is
/// open, as the pad expects of one sender.
public final class BluetoothHapticsStream: Sendable {
    /// The pad's hidraw node.
    public var node: TriggerNode { state.node }

    private let state: _BluetoothHapticsState
    private let writer: OnDemandThread

    /// Finds the hidraw node of the pad behind `eventNode` and opens it.
    public convenience init(eventNode: String) throws(TriggerDeviceError) {
        try self.init(node: TriggerNode.locate(eventNode: eventNode))
    }

    /// Opens `node` for writing and starts the writer thread.
    public init(node: TriggerNode) throws(TriggerDeviceError) {
        let state = _BluetoothHapticsState(node: node, descriptor: try node.open())
        do {
            // Reports are due at instants, one every 10.7 ms: a realtime output, as the USB stream's
            // thread is (SCHED_FIFO 40 when granted, 1 ns timer slack).
            writer = try OnDemandThread(name: "haptics-hd-bt", priority: 40, timerSlack: .nanoseconds(1)) { now in
                state.writeDue(now: now)
            }
        } catch {
            state.close()
            throw .system(node: node.path, error)
        }
        self.state = state
    }

    deinit {
        close()
    }

    /// Plays `pattern`'s haptic events from `instant` (an instant passed already is now), in
    /// place of whatever plays. Throws the failure of an earlier write
    /// (``TriggerDeviceError/padLost(node:_:)`` once the pad is gone), or
    /// ``TriggerDeviceError/closed(node:)`` after ``close()``.
    public func play(_ pattern: Pattern, at instant: MonotonicInstant = .now) throws(TriggerDeviceError) {
        try play(pattern, at: instant, leadingReport: nil)
    }

    /// Plays `pattern` as `playback` says, in place of whatever plays; the play returned can be
    /// ended at an instant. Throws as ``play(_:at:)`` does.
    @discardableResult
    public func play(_ pattern: Pattern, _ playback: HDPlayback) throws(TriggerDeviceError) -> HDPlay {
        try play(pattern, playback, leadingReport: nil)
    }

    /// Plays `pattern` as ``play(_:_:)`` does; the writer thread writes `leadingReport` (another
    /// output report, report id first) just before the pattern's first report.
    package func play(_ pattern: Pattern, at instant: MonotonicInstant, leadingReport: [UInt8]?) throws(TriggerDeviceError) {
        try play(pattern, HDPlayback(start: instant), leadingReport: leadingReport)
    }

    /// Plays `pattern` as ``play(_:_:)`` does, with `leadingReport` written just before its first report.
    @discardableResult
    package func play(_ pattern: Pattern, _ playback: HDPlayback, leadingReport: [UInt8]?) throws(TriggerDeviceError) -> HDPlay {
        let job = _HDJob(renderer: WaveformRenderer(pattern, sampleRate: VoiceCoilFrames.bluetoothSampleRate), playback: playback)
        try state.begin(_BluetoothHapticsJob(job: job, leadingReport: leadingReport))
        writer.schedule(at: playback.start)
        return HDPlay(job: job)
    }

    /// Queues drive samples for the actuators (both play them), at 3 kHz, the first one playing at
    /// `instant` on `CLOCK_MONOTONIC`, and wakes the writer for it. Each block is placed on the
    /// frame of a 3 kHz grid that plays at its instant (a block that starts where the last one
    /// ended continues it exactly); the writer sends a report of 32 frames as its first frame is
    /// due, from the first frame fed for as long as samples come, and adds them to the reports of
    /// a pattern playing (the sum clipped to ±1). Frames more than a report late are not played
    /// (``liveSamplesDropped`` counts them).
    /// Lock-free and allocation-free (a futex wake at most): call it from one thread, the game's
    /// audio thread. Returns `false` when the queue (1 s, 256 blocks) has no room for them.
    public func feed(_ samples: UnsafeBufferPointer<Float>, at instant: MonotonicInstant) -> Bool {
        guard state.live.push(samples, at: instant) else { return false }
        writer.schedule(at: instant)
        return true
    }

    /// Blocks of drive samples refused because the queue was full, and frames that came for a
    /// place already written (not played).
    public var liveSamplesDropped: (blocks: Int, lateFrames: Int) { (state.live.refused, state.live.late) }

    /// Discards the drive samples fed so far: none is written after it returns; a pattern playing
    /// goes on.
    public func discardFedSamples() {
        state.discardLive()
    }

    /// Stops what plays, drive samples fed before it included: no report is written after it
    /// returns (until something is played or fed again).
    public func stop() {
        state.end()
    }

    /// Writes another output report (`bytes`, report id first) between two haptics reports, on
    /// the calling thread.
    package func write(report bytes: [UInt8]) throws(TriggerDeviceError) {
        try state.write(other: bytes)
    }

    /// How many reports have been written since the stream opened.
    public var reportsWritten: UInt32 { state.reportsWritten }

    /// Stops the writer thread and closes the node. Idempotent; nothing is written after it.
    public func close() {
        writer.stop()
        state.close()
    }
}

/// A pattern laid out for Bluetooth and which of its reports comes next.
final class _BluetoothHapticsJob {
    let job: _HDJob
    /// The next report of this pattern to write.
    var next: Int64 = 0
    /// Another report to write before the first one, until written.
    var leadingReport: [UInt8]?

    init(job: _HDJob, leadingReport: [UInt8]? = nil) {
        self.job = job
        self.leadingReport = leadingReport
    }

    /// When report `index` of the pattern is due: exact integer nanoseconds, so nothing drifts.
    func instant(ofReport index: Int64) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: job.playback.start.nanoseconds + index * 32_000_000 / 3)
    }

    var isFinished: Bool { job.isFinished(at: next * Int64(DualSenseHapticsReport.framesPerReport)) }
}

/// The node, the pattern playing and the report being filled, shared by callers and the writer.
final class _BluetoothHapticsState: Sendable {
    let node: TriggerNode

    /// Everything the writer touches, held for each write.
    private struct IO {
        var descriptor: FileDescriptor?
        var job: _BluetoothHapticsJob?
        var report = DualSenseHapticsReport()
        var number: UInt32 = 0
        var waveform = [Float](repeating: 0, count: DualSenseHapticsReport.framesPerReport)
        var samples = [Int8](repeating: 0, count: 2 * DualSenseHapticsReport.framesPerReport)
        var failure: TriggerDeviceError?
        /// The live frame after the last one a report held.
        var liveNext: Int64 = -(1 << 62)
    }

    private let io: OrderedMutex<IO>
    /// Drive samples fed live, placed on a 3 kHz grid of frames counted from ``epoch``.
    let live = _LiveDriveRing(sampleRate: VoiceCoilFrames.bluetoothSampleRate, queueCapacity: 3_000, trackCapacity: 4_096)
    /// Nanoseconds of `CLOCK_MONOTONIC` at live frame 0: when the node was opened.
    let epoch = MonotonicInstant.now.nanoseconds

    init(node: TriggerNode, descriptor: FileDescriptor) {
        self.node = node
        io = OrderedMutex(IO(descriptor: descriptor))
    }

    var reportsWritten: UInt32 { io.withLock { $0.number } }

    func begin(_ job: _BluetoothHapticsJob) throws(TriggerDeviceError) {
        let path = node.path
        try io.withLock { (io: inout IO) throws(TriggerDeviceError) in
            guard io.descriptor != nil else { throw .closed(node: path) }
            if let failure = io.failure { throw failure }
            io.job = job
        }
    }

    func write(other bytes: [UInt8]) throws(TriggerDeviceError) {
        let path = node.path
        try io.withLock { (io: inout IO) throws(TriggerDeviceError) in
            guard let descriptor = io.descriptor else { throw .closed(node: path) }
            try node.write(report: bytes, to: descriptor)
        }
    }

    func end() {
        io.withLock { (io: inout IO) in
            io.job = nil
            live.requestFlush()
            live.drain { liveFrame(at: $0) }
        }
    }

    func discardLive() {
        io.withLock { (_: inout IO) in
            live.requestFlush()
            live.drain { liveFrame(at: $0) }
        }
    }

    /// Writes every report due by `now`: the pattern's, with the live samples for their frames
    /// added, or while no pattern plays, reports of live samples alone from the first frame fed;
    /// returns when the next one is due (`nil`: none).
    func writeDue(now: MonotonicInstant) -> MonotonicInstant? {
        io.withLock { (io: inout IO) -> MonotonicInstant? in
            live.drain { liveFrame(at: $0) }
            let frames = DualSenseHapticsReport.framesPerReport
            while let descriptor = io.descriptor {
                let window: Int64
                if let job = io.job {
                    if job.isFinished {
                        io.job = nil
                        continue
                    }
                    let due = job.instant(ofReport: job.next)
                    if due > now { return due }
                    io.waveform.withUnsafeMutableBufferPointer { job.job.render(from: job.next * Int64(frames), count: frames, into: $0.baseAddress!) }
                    window = liveFrame(at: due.nanoseconds)
                } else {
                    // Live samples more than a report late are not played late (they count as
                    // late): the drive keeps in step.
                    live.skip(to: liveFrame(at: now.nanoseconds) - Int64(frames))
                    guard let start = live.nextUnmixedFrame(from: io.liveNext) else { return nil }
                    let due = liveInstant(ofFrame: start)
                    if due > now { return due }
                    for index in io.waveform.indices { io.waveform[index] = 0 }
                    window = start
                }
                // The live frames of this report, but those a report written before held.
                let skip = Int(min(Int64(frames), max(0, io.liveNext - window)))
                io.waveform.withUnsafeMutableBufferPointer { live.mix(into: $0.baseAddress! + skip, from: window + Int64(skip), count: frames - skip) }
                io.liveNext = max(io.liveNext, window + Int64(frames))
                io.waveform.withUnsafeMutableBufferPointer { waveform in
                    io.samples.withUnsafeMutableBufferPointer { samples in
                        VoiceCoilFrames.bluetoothFrames(waveform.baseAddress!, count: frames, into: samples.baseAddress!)
                        io.report.setFrames(UnsafeBufferPointer(samples), number: io.number)
                    }
                }
                do throws(TriggerDeviceError) {
                    if let leading = io.job?.leadingReport {
                        io.job?.leadingReport = nil
                        try node.write(report: leading, to: descriptor)
                    }
                    try node.write(report: io.report.bytes, to: descriptor)
                } catch {
                    io.failure = io.failure ?? error
                    io.job = nil
                    live.requestFlush()
                    return nil
                }
                io.number &+= 1
                io.job?.next += 1
            }
            return nil
        }
    }

    /// The live frame (3 kHz, counted from ``epoch``) that plays at `nanoseconds`, rounded.
    func liveFrame(at nanoseconds: Int64) -> Int64 {
        let scaled = (nanoseconds - epoch) * Int64(VoiceCoilFrames.bluetoothSampleRate)
        return scaled >= 0 ? (scaled + 500_000_000) / 1_000_000_000 : -((-scaled + 500_000_000) / 1_000_000_000)
    }

    /// When live frame `frame` plays: exact integer nanoseconds.
    func liveInstant(ofFrame frame: Int64) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: epoch + frame * 1_000_000 / 3)
    }

    func close() {
        io.withLock { (io: inout IO) in
            io.job = nil
            try? io.descriptor?.close()
            io.descriptor = nil
        }
    }
}
