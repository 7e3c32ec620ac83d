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
/// ``start()`` opens the card and starts a realtime thread that writes a period whenever the
/// card has room, silence while nothing plays, so the stream and its timing are ready before the
/// first pattern. Stream positions are mapped to `CLOCK_MONOTONIC`, the engine's clock, as the
/// sound output maps its own (the device's timestamped delay, its earliest origin over recent
/// readings): a pattern played at an instant starts on the frame that becomes audible at that
/// instant, so it stays in step with sound cues and trigger effects timed on the same clock. A
/// pattern whose instant has passed (or whose frame was written already) starts with the next
/// period written. Channels 0 and 1 (the headphone jack and the speaker) stay silent.
///
/// ``play(_:at:)`` lays the pattern out on the calling thread and hands it over; a play replaces
/// the one before it. ``stop()`` makes every period from the next one silent; what the card holds
/// already (at most its buffer, ``AudioStreamFormat/bufferFrames``) still plays.
public final class USBHapticsStream: @unchecked Sendable {
    /// The card's stream, as the device granted it once started.
    public var format: AudioStreamFormat { sink.format }

    private let sink: any AudioSink
    /// The device's name, for errors.
    private let device: String
    /// What the callers hand to the realtime thread: a job, or `nil` after a stop; taken by the
    /// thread when it gets the lock without waiting.
    private let pending = OrderedMutex<(changed: Bool, job: _HDJob?)>((false, nil))
    private let thread = OrderedMutex<RealtimeThread?>(nil)
    private let running = Atomic<Bool>(false)
    private let periodsWritten = Atomic<Int>(0)
    private let underrunsRecovered = Atomic<Int>(0)
    /// Drive samples fed live (``feed(_:at:)``), placed by frame and added to what plays.
    let live = _LiveDriveRing(sampleRate: VoiceCoilFrames.usbSampleRate, queueCapacity: 48_000, trackCapacity: 48_000)

    // Realtime side: touched only by the thread (or by `process()` without one).
    private var job: _HDJob?
    private var clock: _StreamClock
    private var framesWritten: Int64 = 0
    private var buffer: [Float]
    private var waveform: [Float]

    /// Frames per period asked for: 1 ms at 48 kHz.
    public static let periodFrames = 48

    /// A stream on `card`'s `hw:` device: 4 channels, 16-bit, 48 kHz, periods of
    /// ``periodFrames``, `periodCount` of them in the card's buffer.
    public convenience init(card: VoiceCoilSoundCard, periodCount: Int = 3) {
        self.init(sink: ALSAAudioSink(device: card.device, format: AudioStreamFormat(
            sampleRate: VoiceCoilFrames.usbSampleRate, periodFrames: Self.periodFrames, periodCount: periodCount,
            sampleFormat: .signed16, channelCount: VoiceCoilFrames.usbChannels)), device: card.device)
    }

    /// A stream on `sink` (named `device` in errors), whose format has 4 channels at 48 kHz.
    package init(sink: any AudioSink, device: String) {
        self.device = device
        precondition(sink.format.channelCount == VoiceCoilFrames.usbChannels, "the pad's sound card takes 4 channels")
        self.sink = sink
        clock = _StreamClock(format: sink.format, window: 16)
        buffer = []
        waveform = []
    }

    deinit {
        close()
    }

    /// Opens the card and starts the realtime thread (`haptics-hd-usb`, `SCHED_FIFO` when granted).
    public func start() throws(AudioSinkError) {
        try open()
        try thread.withLock { (thread: inout RealtimeThread?) throws(AudioSinkError) in
            guard thread == nil else { return }
            running.store(true, ordering: .releasing)
            do throws(SystemCallError) {
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
        if let initial { clock.observe(initial) }
    }

    /// Plays `pattern`'s haptic events from `instant` (an instant passed already is now), in place
    /// of whatever plays.
    public func play(_ pattern: Pattern, at instant: MonotonicInstant = .now) {
        play(pattern, HDPlayback(start: instant))
    }

    /// Plays `pattern` as `playback` says, in place of whatever plays; the play returned can be
    /// ended at an instant.
    @discardableResult
    public func play(_ pattern: Pattern, _ playback: HDPlayback) -> HDPlay {
        let job = _HDJob(renderer: WaveformRenderer(pattern, sampleRate: sink.format.sampleRate), playback: playback)
        pending.withLock { $0 = (true, job) }
        return HDPlay(job: job)
    }

    /// Makes every period from the next one written silent, drive samples fed before it included.
    public func stop() {
        live.requestFlush()
        pending.withLock { $0 = (true, nil) }
    }

    /// How many periods have been written since the stream opened.
    public var periods: Int { periodsWritten.load(ordering: .relaxed) }

    /// How many times the card ran dry (the thread was not run for a whole buffer) and was
    /// restarted: what played then was cut, and later frames play later by the silence between.
    public var underruns: Int { underrunsRecovered.load(ordering: .relaxed) }

    /// Writes one period: the pattern playing, on channels 2 and 3, where it falls in the period.
    /// The realtime thread loops on it; call it yourself to drive a stream without one (tests).
    /// Returns `false` once the card is lost.
    @discardableResult
    public func process() -> Bool {
        guard !buffer.isEmpty else { return false }
        // A play or stop handed over, when the lock is free now; else the next period takes it.
        _ = pending.withLockIfAvailable { (pending: inout (changed: Bool, job: _HDJob?)) in
            guard pending.changed else { return }
            job = pending.job
            pending = (false, nil)
        }
        let periodFrames = waveform.count
        let channels = sink.format.channelCount
        let first = framesWritten
        for index in buffer.indices { buffer[index] = 0 }
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
                buffer[frame * channels + VoiceCoilFrames.usbLeftChannel] = sample
                buffer[frame * channels + VoiceCoilFrames.usbRightChannel] = sample
            }
            if job.isFinished(at: first + Int64(periodFrames) - origin) { self.job = nil }
        }
        mixLive(into: &buffer, first: first, format: sink.format, origin: clock.isValid ? clock.origin : nil)
        let result = buffer.withUnsafeBufferPointer { sink.write($0.baseAddress!) }
        switch result.status {
        case .written: break
        case .recoveredUnderrun:
            clock.reset()
            underrunsRecovered.add(1, ordering: .relaxed)
        case .deviceLost: return false
        }
        framesWritten = first + Int64(periodFrames)
        periodsWritten.add(1, ordering: .relaxed)
        if let timestamp = result.timestamp { clock.observe(timestamp) }
        return true
    }

    /// Stops the thread and closes the card. Idempotent.
    public func close() {
        let stopped = thread.withLock { (thread: inout RealtimeThread?) -> RealtimeThread? in
            defer { thread = nil }
            return thread
        }
        running.store(false, ordering: .releasing)
        stopped?.join()
        if !buffer.isEmpty {
            sink.close()
            buffer = []
        }
    }
}
