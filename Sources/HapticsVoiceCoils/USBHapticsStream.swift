#if canImport(Glibc)
import Glibc
#endif
import HapticsAudio
import HapticsPatterns
import HapticsSystem
import Synchronization

/// HD haptics over USB: plays patterns on a DualSense's voice coils through its sound card,
/// channels 2 and 3 of a 4-channel, 16-bit, 48 kHz stream, written through ALSA `hw:` a period of
/// 1 ms (48 frames) at a time.
///
/// ```swift
/// let card = try VoiceCoilSoundCard.locate(eventNode: "/dev/input/event5")
/// let haptics = USBHapticsStream(card: card)
/// try haptics.start()
/// try haptics.play(pattern, at: .now + .milliseconds(5))
/// ```
///
/// ``start()`` opens the card and starts a realtime thread that keeps the card's buffer full,
/// silence while nothing plays, so the stream and its timing are ready before the first pattern
/// and a stall of the thread shorter than the buffer goes unheard. Stream positions are mapped to
/// `CLOCK_MONOTONIC`, the engine's clock, as the sound output maps its own (the device's
/// timestamped delay, its earliest origin over recent readings): a pattern played at an instant
/// starts on the frame that becomes audible at that instant, so it stays in step with sound cues
/// and trigger effects timed on the same clock.
///
/// ``play(_:at:)`` lays the pattern out on the calling thread, hands it over and wakes the thread;
/// a play replaces the one before it. ``stop()`` hands over silence the same way. The thread then
/// takes back the frames the card holds but has not taken yet (`snd_pcm_rewind`) from
/// ``rewindMarginFrames`` (1 ms) past both the card's position and the frame audible now, and
/// writes them again: what played is cut there, and a pattern whose instant has passed (or whose
/// frame was written already) starts there. A card that allows no rewinds plays what it holds
/// first (at most its buffer, ``AudioStreamFormat/bufferFrames``). The card runs free: when the
/// thread is late for every frame it held, the card plays silence, the frames due meanwhile are
/// dropped (``underruns`` counts it) and the timing holds.
///
/// The thread produces each period in one place, from the job handed over; the caller's thread
/// never calls ALSA. Once nothing has played for ``idleFrames`` (1 s), the thread closes the card
/// and sleeps (``isSuspended``): an idle stream wakes nobody. The next play, stop or fed block
/// wakes it and it opens the card again; that play starts once the card runs again (the first
/// period written after the reopen, a few milliseconds late).
public final class USBHapticsStream: @unchecked Sendable {
    /// The card's stream, as the device granted it once started.
    public var format: AudioStreamFormat { sink.format }

    private let sink: any AudioSink
    private let rewindMargin: Int64
    /// The clock a handover reads (the device's own time in tests).
    private let now: @Sendable () -> MonotonicInstant
    /// The device's name, for errors.
    private let device: String
    /// What the callers hand to the realtime thread: a job, or `nil` after a stop; taken by the
    /// thread when it gets the lock without waiting.
    private let pending = OrderedMutex<(changed: Bool, job: _HDJob?)>((false, nil))
    /// A pipe whose read end the thread polls beside the card: a handover writes a byte to it.
    private let wakeReader: Int32
    private let wakeWriter: Int32
    private let thread = OrderedMutex<RealtimeThread?>(nil)
    private let running = Atomic<Bool>(false)
    private let periodsWritten = Atomic<Int>(0)
    private let underrunsRecovered = Atomic<Int>(0)
    private let timingJumpCount = Atomic<Int>(0)
    private let framesRewound = Atomic<Int>(0)
    private let suspended = Atomic<Bool>(false)
    /// Drive samples fed live (``feed(_:at:)``), placed by frame and added to what plays.
    let live = _LiveDriveRing(sampleRate: VoiceCoilFrames.usbSampleRate, queueCapacity: 48_000, trackCapacity: 48_000)

    // Realtime side: touched only by the thread (or by `process()` without one).
    private var job: _HDJob?
    private var clock: _StreamClock
    private var framesWritten: Int64 = 0
    private var buffer: [Float]
    private var waveform: [Float]
    /// The periods a handover renders before it takes frames back.
    private var rewrite: [Float]
    /// Frames written in a row with nothing to play; whether the thread may close the card then.
    private var idleFramesWritten: Int64 = 0
    private var suspendsWhenIdle = false

    /// Frames per period asked for: 1 ms at 48 kHz.
    public static let periodFrames = 48

    /// How many frames past the card's position, and past the frame audible now, a handover keeps
    /// of what was written (1 ms): room for the card to move on while the thread writes the frames
    /// it took back.
    public static let rewindMarginFrames: Int64 = 48

    /// How long the thread writes silence once nothing plays before it closes the card and sleeps
    /// (1 s of frames).
    public static let idleFrames: Int64 = 48_000

    /// How many periods a handover renders before it takes frames back from the card: what the
    /// card is sure to hold once the rewind is written over (4 ms), whatever the rendering costs.
    public static let rewritePeriodsAhead = 4

    /// A stream on `card`'s `hw:` device: 4 channels, 16-bit, 48 kHz, periods of
    /// ``periodFrames``, `periodCount` of them in the card's buffer.
    public convenience init(card: VoiceCoilSoundCard, periodCount: Int = 3, rewindMargin: Int64 = USBHapticsStream.rewindMarginFrames) {
        self.init(sink: ALSAAudioSink(device: card.device, format: AudioStreamFormat(
            sampleRate: VoiceCoilFrames.usbSampleRate, periodFrames: Self.periodFrames, periodCount: periodCount,
            sampleFormat: .signed16, channelCount: VoiceCoilFrames.usbChannels), freeRunning: true),
                  device: card.device, rewindMargin: rewindMargin)
    }

    /// A stream on `sink` (named `device` in errors), whose format has 4 channels at 48 kHz.
    package init(sink: any AudioSink, device: String, rewindMargin: Int64 = USBHapticsStream.rewindMarginFrames,
                 now: @escaping @Sendable () -> MonotonicInstant = { .now }) {
        self.device = device
        self.rewindMargin = rewindMargin
        self.now = now
        precondition(sink.format.channelCount == VoiceCoilFrames.usbChannels, "the pad's sound card takes 4 channels")
        self.sink = sink
        clock = _StreamClock(format: sink.format, window: 16)
        buffer = []
        waveform = []
        rewrite = []
        // Without the pipe (no descriptor left) the thread still runs, paced by the card alone.
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends {
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
                _ = fcntl(end, F_SETFL, O_NONBLOCK)
            }
        }
        wakeReader = ends[0]
        wakeWriter = ends[1]
    }

    deinit {
        close()
        if wakeReader >= 0 { Glibc.close(wakeReader) }
        if wakeWriter >= 0 { Glibc.close(wakeWriter) }
    }

    /// Opens the card and starts the realtime thread (`haptics-hd-usb`, `SCHED_FIFO` when granted).
    public func start() throws(AudioSinkError) {
        try open()
        try thread.withLock { (thread: inout RealtimeThread?) throws(AudioSinkError) in
            guard thread == nil else { return }
            running.store(true, ordering: .releasing)
            do throws(SystemCallError) {
                suspendsWhenIdle = true
                thread = try RealtimeThread.start(RealtimeThread.Configuration(name: "haptics-hd-usb", priority: 40)) { [self] in
                    while running.load(ordering: .acquiring), process() {}
                }
            } catch {
                running.store(false, ordering: .releasing)
                throw AudioSinkError(device: device, call: "pthread_create", errno: error.errno,
                                     reason: "the thread writing the card could not start")
            }
        }
    }

    /// Opens the card, for driving the stream with ``process()``; ``start()`` opens it too.
    public func open() throws(AudioSinkError) {
        guard buffer.isEmpty else { return }
        let initial = try sink.open()
        let granted = sink.format
        clock = _StreamClock(format: granted, window: 16)
        framesWritten = 0
        buffer = [Float](repeating: 0, count: granted.channelCount * granted.periodFrames)
        waveform = [Float](repeating: 0, count: granted.periodFrames)
        rewrite = [Float](repeating: 0, count: granted.channelCount * granted.periodFrames * Self.rewritePeriodsAhead)
        if let initial { clock.observe(initial) }
    }

    /// Plays `pattern`'s haptic events from `instant` (an instant passed already is now), in place
    /// of whatever plays.
    public func play(_ pattern: Pattern, at instant: MonotonicInstant = .now) {
        play(pattern, HDPlayback(start: instant))
    }

    /// Plays `pattern` as `playback` says, in place of whatever plays; the play returned can be
    /// ended at an instant. Its first ``rewritePeriodsAhead`` periods are rendered here, on the
    /// calling thread, so that the handover writes them right after its rewind.
    @discardableResult
    public func play(_ pattern: Pattern, _ playback: HDPlayback) -> HDPlay {
        let format = sink.format
        let job = _HDJob(renderer: WaveformRenderer(pattern, sampleRate: format.sampleRate), playback: playback)
        job.prerender(frames: Self.rewritePeriodsAhead * format.periodFrames)
        hand(job)
        return HDPlay(job: job)
    }

    /// Silences the stream from the earliest frame the card has not taken yet (plus
    /// ``rewindMarginFrames``), drive samples fed before it included.
    public func stop() {
        live.requestFlush()
        hand(nil)
    }

    /// Hands `job` (or silence) to the realtime thread and wakes it.
    private func hand(_ job: _HDJob?) {
        pending.withLock { $0 = (true, job) }
        wake()
    }

    func wake() {
        var byte: UInt8 = 1
        _ = Glibc.write(wakeWriter, &byte, 1)
    }

    /// How many periods have been written since the stream opened.
    public var periods: Int { periodsWritten.load(ordering: .relaxed) }

    /// How many times the card ran dry (the thread was late for every frame the card held): the
    /// card played silence until the thread caught up, and the frames due meanwhile were dropped;
    /// later frames play on time.
    public var underruns: Int { underrunsRecovered.load(ordering: .relaxed) }

    /// How many times the card's position jumped later without an underrun (the stream lost time:
    /// the thread not run for longer than the card's buffer) and the timing started again from it:
    /// a pattern not yet sounding is placed again by the new timing, one sounding plays on.
    public var timingJumps: Int { timingJumpCount.load(ordering: .relaxed) }

    /// How many frames handovers took back from the card and wrote again.
    public var rewoundFrames: Int { framesRewound.load(ordering: .relaxed) }

    /// Whether the thread has closed the card because nothing played for ``idleFrames``; the next
    /// play, stop or fed block opens it again.
    public var isSuspended: Bool { suspended.load(ordering: .acquiring) }

    /// Waits until the card has room for a period or a play or stop is handed over, then writes:
    /// after a handover, the frames it takes back from the card (see ``play(_:at:)``), else one
    /// period — the pattern playing, on channels 2 and 3, where it falls in the period. The
    /// realtime thread loops on it; call it yourself to drive a stream without one (tests).
    /// Returns `false` once the card is lost.
    @discardableResult
    public func process() -> Bool {
        if suspended.load(ordering: .acquiring) { return resumeWhenWoken() }
        guard !buffer.isEmpty else { return false }
        sink.waitForRoom(orReadable: wakeReader)
        if takeHandover() {
            idleFramesWritten = 0
            if let written = rewriteUntakenFrames() { return written }
        }
        let written = buffer.withUnsafeMutableBufferPointer { period in
            renderPeriod(from: framesWritten, into: period.baseAddress!)
            return write(period.baseAddress!)
        }
        if written { suspendIfIdle() }
        return written
    }

    /// Counts a period with nothing to play; after ``idleFrames`` of them (and the card's buffer,
    /// so the last sound has played), closes the card: the thread sleeps until woken.
    private func suspendIfIdle() {
        guard job == nil && live.isIdle(after: framesWritten) else {
            idleFramesWritten = 0
            return
        }
        idleFramesWritten += Int64(waveform.count)
        guard suspendsWhenIdle, idleFramesWritten >= Self.idleFrames + Int64(sink.format.bufferFrames) else { return }
        sink.close()
        idleFramesWritten = 0
        suspended.store(true, ordering: .releasing)
    }

    /// Sleeps until a play, a stop or a fed block is handed over (or the stream closes), then opens
    /// the card again, the stream's frames counted afresh. `false` when the card cannot be opened
    /// again (it is gone).
    private func resumeWhenWoken() -> Bool {
        var descriptor = pollfd(fd: wakeReader, events: Int16(POLLIN), revents: 0)
        while running.load(ordering: .acquiring) && !hasWork() {
            _ = poll(&descriptor, 1, -1)
            if descriptor.revents & Int16(POLLIN) != 0 { break }
        }
        guard running.load(ordering: .acquiring) else { return true }
        do {
            let initial = try sink.open()
            clock = _StreamClock(format: sink.format, window: 16)
            framesWritten = 0
            live.renumber()
            job?.origin = nil
            if let initial { clock.observe(initial) }
        } catch {
            return false
        }
        suspended.store(false, ordering: .releasing)
        return true
    }

    /// Whether something was handed over or fed since the thread last looked.
    private func hasWork() -> Bool {
        pending.withLock { $0.changed } || !live.isIdle(after: .max)
    }

    /// Takes a play or stop handed over, when the lock is free now (else the next period takes
    /// it); `true` when it took one.
    private func takeHandover() -> Bool {
        var wakes: (UInt64, UInt64) = (0, 0)
        _ = withUnsafeMutableBytes(of: &wakes) { Glibc.read(wakeReader, $0.baseAddress, $0.count) }
        var changed = false
        _ = pending.withLockIfAvailable { (pending: inout (changed: Bool, job: _HDJob?)) in
            guard pending.changed else { return }
            job = pending.job
            pending = (false, nil)
            changed = true
        }
        return changed
    }

    /// After a handover: takes back the frames from the first one worth taking back — a margin
    /// past both the card's position and the frame audible now (a card that moves its pointer in
    /// steps, as snd-aloop does on the kernel's tick, may take every frame up to now at once) —
    /// and writes them again. The first ``rewritePeriodsAhead`` periods are rendered before the
    /// rewind and written right after it, so the card is short of frames only between two system
    /// calls; the others follow, rendered one by one. The stream clock holds: the sink's later
    /// readings count the frames written without those taken back. `nil` when nothing was taken
    /// back (the card allows no rewinds, or holds nothing past the margin); else whether the card
    /// is still there.
    private func rewriteUntakenFrames() -> Bool? {
        let rewindable = sink.rewindable()
        var from = framesWritten - rewindable + rewindMargin
        if clock.isValid {
            from = max(from, sink.format.frames(nanoseconds: now().nanoseconds - clock.origin) + rewindMargin)
        }
        guard from < framesWritten else { return nil }
        let periodFrames = Int64(waveform.count)
        let periodSamples = buffer.count
        let end = framesWritten
        let count = Int((end - from + periodFrames - 1) / periodFrames)
        let ahead = min(count, Self.rewritePeriodsAhead)
        let handed = job
        return rewrite.withUnsafeMutableBufferPointer { periods -> Bool? in
            for index in 0..<ahead {
                renderPeriod(from: from + Int64(index) * periodFrames, into: periods.baseAddress! + index * periodSamples)
            }
            // The card may have moved on while they were rendered: the rewind starts on the first
            // of them still a margin past it.
            let position = framesWritten - sink.rewindable()
            let skipped = min(Int64(ahead), max(0, (position + rewindMargin - from + periodFrames - 1) / periodFrames))
            guard skipped < ahead else {
                // None is: the job starts again, whole, after what the card holds, at the next handover's
                // chance — the next period.
                job = handed
                handed?.origin = nil
                return nil
            }
            let start = from + skipped * periodFrames
            let rewound = sink.rewind(end - start)
            framesWritten -= rewound
            framesRewound.add(Int(rewound), ordering: .relaxed)
            guard framesWritten == start else { return rewound > 0 ? true : nil }
            for index in Int(skipped)..<ahead where !write(periods.baseAddress! + index * periodSamples) { return false }
            for _ in ahead..<count {
                renderPeriod(from: framesWritten, into: periods.baseAddress!)
                if !write(periods.baseAddress!) { return false }
            }
            return true
        }
    }

    /// Writes the period at `period`, rendered for `framesWritten`, to the card; `false` once the
    /// card is lost. When the card played past the frames written (the thread was late), the
    /// writer moves up to it first and the period is rendered again for where it now lands.
    private func write(_ period: UnsafeMutablePointer<Float>) -> Bool {
        let skipped = sink.skipPlayedFrames()
        if skipped > 0 {
            framesWritten += skipped
            underrunsRecovered.add(1, ordering: .relaxed)
            renderPeriod(from: framesWritten, into: period)
        }
        let result = sink.write(period)
        switch result.status {
        case .written: break
        case .recoveredUnderrun:
            clock.reset()
            underrunsRecovered.add(1, ordering: .relaxed)
        case .deviceLost: return false
        }
        framesWritten += Int64(waveform.count)
        periodsWritten.add(1, ordering: .relaxed)
        if let timestamp = result.timestamp, clock.observe(timestamp) {
            timingJumpCount.add(1, ordering: .relaxed)
            // A pattern none of whose frames is written yet is placed again by the new timing; one
            // that began sounding keeps its frames running on.
            if let origin = job?.origin, origin >= framesWritten { job?.origin = nil }
        }
        return true
    }

    /// Fills `period` (one period of interleaved frames) with the frames from stream position
    /// `first`: every source playing, where it falls in the period, on the channels it drives;
    /// silence elsewhere. The one place a period's frames are made.
    private func renderPeriod(from first: Int64, into period: UnsafeMutablePointer<Float>) {
        let periodFrames = waveform.count
        let channels = sink.format.channelCount
        period.update(repeating: 0, count: periodFrames * channels)
        if let job, clock.isValid {
            if job.origin == nil {
                // Frame 0 on the frame audible at the start, or on this period's first when that is written already.
                job.origin = max(first, sink.format.frames(nanoseconds: job.playback.start.nanoseconds - clock.origin))
            }
            let origin = job.origin!
            waveform.withUnsafeMutableBufferPointer { wave in
                job.render(from: first - origin, count: periodFrames, into: wave.baseAddress!)
            }
            for frame in 0..<periodFrames {
                let sample = waveform[frame]
                period[frame * channels + VoiceCoilFrames.usbLeftChannel] = sample
                period[frame * channels + VoiceCoilFrames.usbRightChannel] = sample
            }
            if job.isFinished(at: first + Int64(periodFrames) - origin) { self.job = nil }
        }
        mixLive(into: period, frames: periodFrames, first: first, format: sink.format, origin: clock.isValid ? clock.origin : nil)
    }

    /// Stops the thread and closes the card. Idempotent.
    public func close() {
        let stopped = thread.withLock { (thread: inout RealtimeThread?) -> RealtimeThread? in
            defer { thread = nil }
            return thread
        }
        running.store(false, ordering: .releasing)
        wake()
        stopped?.join()
        if !buffer.isEmpty {
            sink.close()
            buffer = []
        }
    }
}
