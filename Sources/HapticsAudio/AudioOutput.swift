import CHapticsSystem
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
@_spi(Realtime) import HapticsSystem

/// Plays voices through a sink so that each becomes audible at the monotonic instant asked for.
///
/// The audio thread (`haptics-audio`, or calls to ``process()`` when driving it by hand) mixes one
/// period at a time into a buffer allocated up front and hands it to the sink. After every period
/// the sink reports where the stream is (see ``AudioTimestamp``); from those readings the output
/// knows the instant each stream position becomes audible, and places a voice's first frame at the
/// position audible at its ``schedule(_:audibleAt:gain:group:)`` instant — to the frame. A voice
/// asked for sooner than the latency allows plays from its start at once and is counted late. A
/// cancelled voice (``cancel(group:at:)``) fades out from the position audible at its instant.
///
/// Realtime path (the audio thread, ``process()``): no allocation, no blocking lock, no logging.
/// ``schedule(_:audibleAt:gain:group:)``, ``cancel(group:at:)`` and ``cancelAll(at:)`` are
/// lock-free from any thread. Losing the device ends the audio thread with
/// ``AudioEvent/deviceLost(errno:)``; it never blocks or crashes anything else.
public final class AudioOutput: @unchecked Sendable {
    /// The sink.
    public let sink: any AudioSink
    /// Sizes and policies.
    public let configuration: AudioOutputConfiguration

    private let commands: BoundedMPSCQueue<_VoiceCommand>
    private let retired: BoundedMPSCQueue<_VoiceCommand>
    private let events: BoundedMPSCQueue<_EventRecord>
    /// Held while the control side releases finished voices. Internal so that tests can hold it,
    /// as a control thread busy draining would, so that finished voices keep their slots.
    let retireLock = OrderedMutex(())
    private let eventLock = OrderedMutex(())
    private let control = OrderedMutex<RealtimeThread?>(nil)
    private let grant = OrderedMutex<RealtimeThread.Grant?>(nil)

    private let muted = Atomic<Bool>(false)
    private let lost = Atomic<Bool>(false)
    private let opened = Atomic<Bool>(false)
    private let running = Atomic<Bool>(false)
    private let processing = Atomic<Bool>(false)
    private let latencyValue = Atomic<Int64>(0)
    private let periodCount = Atomic<Int>(0)
    private let scheduledCount = Atomic<Int>(0)
    private let droppedCount = Atomic<Int>(0)
    private let noSlotCount = Atomic<Int>(0)
    private let lateCount = Atomic<Int>(0)
    private let maximumLatenessValue = Atomic<Int64>(0)
    private let completedCount = Atomic<Int>(0)
    private let cancelledCount = Atomic<Int>(0)
    private let underrunCount = Atomic<Int>(0)
    private let timingJumpCount = Atomic<Int>(0)
    /// Voices accepted and not yet released: queued, playing, or on their way back. Never more than
    /// the voice slots (so every voice queued finds one), which the way back holds with room to spare.
    private let heldCount = Atomic<Int>(0)

    // Owned by whoever mixes (the audio thread, or `process()`); `processing` keeps them apart.
    private let active: UnsafeMutablePointer<_ActiveVoice>
    private var activeCount = 0
    private var buffer: UnsafeMutablePointer<Float>
    /// One period of a voice made as it plays, rendered before it is mixed.
    private var scratch: UnsafeMutablePointer<Float>
    private var framesWritten: Int64 = 0
    private var clock: _StreamClock
    private var format: AudioStreamFormat

    /// Creates an output on `sink`. Nothing is opened until ``open()`` or ``start()``.
    public init(sink: any AudioSink, configuration: AudioOutputConfiguration = AudioOutputConfiguration()) {
        precondition(sink.format.channelCount == 2, "an AudioOutput mixes stereo: its sink has \(sink.format.channelCount) channels")
        self.sink = sink
        self.configuration = configuration
        commands = BoundedMPSCQueue(minimumCapacity: configuration.queueCapacity, filler: .empty)
        retired = BoundedMPSCQueue(minimumCapacity: configuration.queueCapacity + configuration.maximumVoices,
                             filler: .empty)
        events = BoundedMPSCQueue(minimumCapacity: 64, filler: .empty)
        active = .allocate(capacity: configuration.maximumVoices)
        format = sink.format
        buffer = .allocate(capacity: 2 * sink.format.periodFrames)
        scratch = .allocate(capacity: 2 * sink.format.periodFrames)
        scratch.initialize(repeating: 0, count: 2 * sink.format.periodFrames)
        clock = _StreamClock(format: sink.format, window: configuration.timingWindow)
    }

    deinit {
        stop()
        releaseEverything()
        active.deallocate()
        buffer.deallocate()
        scratch.deallocate()
    }

    // MARK: Control side

    /// The stream format the sink granted (valid after ``open()``). Render voices at its
    /// `sampleRate`: a device may grant another rate than the one asked for.
    public var streamFormat: AudioStreamFormat { sink.format }

    /// Opens the sink, for driving the output with ``process()``. ``start()`` opens it too.
    public func open() throws(AudioSinkError) {
        guard !opened.load(ordering: .acquiring) else { return }
        let initial = try sink.open()
        let granted = sink.format
        if granted.periodFrames != format.periodFrames {
            // The device chose another period: the mixing buffer follows what it granted.
            buffer.deallocate()
            buffer = .allocate(capacity: 2 * granted.periodFrames)
            scratch.deallocate()
            scratch = .allocate(capacity: 2 * granted.periodFrames)
            scratch.initialize(repeating: 0, count: 2 * granted.periodFrames)
        }
        format = granted
        clock = _StreamClock(format: granted, window: configuration.timingWindow)
        framesWritten = 0
        lost.store(false, ordering: .releasing)
        if let initial { observe(initial) }
        opened.store(true, ordering: .releasing)
    }

    /// Opens the sink if needed and starts the audio thread: named `haptics-audio`, timer slack 1 ns,
    /// `SCHED_FIFO` if granted (the refusal is kept in ``statistics``).
    public func start() throws(AudioOutputError) {
        do {
            try open()
        } catch {
            throw .sink(error)
        }
        try control.withLock { (thread: inout RealtimeThread?) throws(AudioOutputError) in
            guard thread == nil else { return }
            running.store(true, ordering: .releasing)
            let configuration = RealtimeThread.Configuration(
                name: "haptics-audio", priority: self.configuration.realtimePriority)
            do throws(SystemCallError) {
                // The thread holds the output until its loop ends (`stop()`).
                let started = try RealtimeThread.start(configuration) { [self] in runAudioThread() }
                grant.withLock { $0 = started.grant }
                thread = started
            } catch {
                running.store(false, ordering: .releasing)
                throw .threadCreationFailed(errno: error.errno)
            }
        }
    }

    /// Whether the audio thread runs.
    public var isRunning: Bool { control.withLock { $0 != nil } }

    /// Stops the audio thread (within a period), closes the sink and releases every voice.
    public func stop() {
        let thread = control.withLock { (thread: inout RealtimeThread?) -> RealtimeThread? in
            defer { thread = nil }
            return thread
        }
        if let thread {
            running.store(false, ordering: .releasing)
            thread.join()
        }
        if opened.exchange(false, ordering: .acquiringAndReleasing) {
            sink.close()
        }
        releaseEverything()
    }

    /// Queues `voice` to become audible at `audibleAt` (`CLOCK_MONOTONIC`), its samples multiplied
    /// by `gain` (linear amplitude: 0.5 is half the sample values, 6 dB down) and tagged with `group`
    /// for ``cancel(group:at:)``. Lock-free from any thread, no allocation. Throws (and counts as
    /// dropped) why the voice was refused: the device is lost, every voice slot is taken, or the
    /// queue is full. A voice holds its slot from here until it is released after it ended (a later
    /// control-side call releases finished voices, this one first of all), so a voice accepted
    /// always finds its slot: nothing accepted is let go for want of one.
    public func enqueue(_ voice: AudioVoice, audibleAt: MonotonicInstant, gain: Float = 1,
                        group: AudioVoiceGroup = .ungrouped) throws(AudioVoiceRefusal) {
        drainRetired()
        if lost.load(ordering: .acquiring) {
            droppedCount.add(1, ordering: .relaxed)
            throw .deviceLost
        }
        guard reserveSlot() else {
            droppedCount.add(1, ordering: .relaxed)
            noSlotCount.add(1, ordering: .relaxed)
            throw .noVoiceSlot
        }
        let retained = Unmanaged.passRetained(voice).toOpaque()
        let command = _VoiceCommand(kind: .voice, voice: retained, frames: voice.frames.map { UnsafePointer($0) },
                                    program: voice.program.map { UnsafePointer($0) }, frameCount: voice.frameCount,
                                    audibleAt: audibleAt.nanoseconds, gain: gain.isFinite ? max(gain, 0) : 0, group: group.rawValue)
        guard commands.push(command) else {
            release(command)
            droppedCount.add(1, ordering: .relaxed)
            throw .queueFull
        }
        scheduledCount.add(1, ordering: .relaxed)
    }

    /// ``enqueue(_:audibleAt:gain:group:)`` saying only whether the voice was accepted.
    public func schedule(_ voice: AudioVoice, audibleAt: MonotonicInstant, gain: Float = 1,
                         group: AudioVoiceGroup = .ungrouped) -> Bool {
        do {
            try enqueue(voice, audibleAt: audibleAt, gain: gain, group: group)
            return true
        } catch {
            return false
        }
    }

    /// Queues every voice of a pattern that starts at `patternStart`, each at `gain` and tagged with
    /// `group`; returns how many were accepted.
    @discardableResult
    public func schedule(_ voices: [ScheduledVoice], patternStart: MonotonicInstant, gain: Float = 1,
                         group: AudioVoiceGroup = .ungrouped) -> Int {
        enqueue(voices, patternStart: patternStart, gain: gain, group: group).accepted
    }

    /// Queues every voice of a pattern that starts at `patternStart`, each at `gain` and tagged with
    /// `group`: how many were accepted, and why the first refused one was (`nil` when none was).
    public func enqueue(_ voices: [ScheduledVoice], patternStart: MonotonicInstant, gain: Float = 1,
                        group: AudioVoiceGroup = .ungrouped) -> (accepted: Int, refusal: AudioVoiceRefusal?) {
        var accepted = 0
        var refusal: AudioVoiceRefusal?
        for placed in voices {
            do {
                try enqueue(placed.voice, audibleAt: patternStart.advanced(by: placed.timeOffset), gain: gain, group: group)
                accepted += 1
            } catch {
                refusal = refusal ?? error
            }
        }
        return (accepted, refusal)
    }

    /// Silences the voices of `group` from `time` (`nil`: the next period mixed): a voice that would
    /// start at or after that instant never sounds; one playing then fades out linearly over
    /// ``AudioOutputConfiguration/fadeOutFrames`` frames from the stream position audible at `time`
    /// and is released. Voices scheduled after this call are not affected, whatever their instant.
    /// A voice already playing when a past `time` arrives fades from the next period mixed.
    /// Lock-free from any thread, no allocation; `false` when the queue is full.
    @discardableResult
    public func cancel(group: AudioVoiceGroup, at time: MonotonicInstant? = nil) -> Bool {
        submitCancellation(.cancelGroup, group: group.rawValue, at: time)
    }

    /// Silences every voice scheduled so far from `time`, as ``cancel(group:at:)`` does for one
    /// group. Lock-free from any thread, no allocation; `false` when the queue is full.
    @discardableResult
    public func cancelAll(at time: MonotonicInstant? = nil) -> Bool {
        submitCancellation(.cancelAll, group: 0, at: time)
    }

    private func submitCancellation(_ kind: _VoiceCommand.Kind, group: UInt64, at time: MonotonicInstant?) -> Bool {
        commands.push(_VoiceCommand(kind: kind, voice: nil, frames: nil, program: nil, frameCount: 0,
                                    audibleAt: time?.nanoseconds ?? Int64.min, gain: 0, group: group))
    }

    /// The current output latency estimate: how long a frame handed to the sink now waits before it
    /// is heard (smoothed; `.zero` before the first reading).
    public var latency: Duration { .nanoseconds(latencyValue.load(ordering: .relaxed)) }

    /// How far ahead of now a voice must be scheduled to be heard on time: the latency plus one
    /// period (a voice arriving just after a period was mixed waits for the next one). "As soon as
    /// possible" for a cue is `now + minimumLeadTime`.
    public var minimumLeadTime: Duration {
        latency + sink.format.duration(ofFrames: Int64(sink.format.periodFrames))
    }

    /// Mute switch: while muted, voices keep their time and run silently.
    public var isMuted: Bool {
        get { muted.load(ordering: .relaxed) }
        set { muted.store(newValue, ordering: .relaxed) }
    }

    /// Whether the device was lost (the output then refuses voices until opened again).
    public var isDeviceLost: Bool { lost.load(ordering: .acquiring) }

    /// Counters so far.
    public var statistics: AudioOutputStatistics {
        AudioOutputStatistics(
            periods: periodCount.load(ordering: .relaxed), scheduled: scheduledCount.load(ordering: .relaxed),
            dropped: droppedCount.load(ordering: .relaxed), noVoiceSlot: noSlotCount.load(ordering: .relaxed), late: lateCount.load(ordering: .relaxed),
            maximumLateness: .nanoseconds(maximumLatenessValue.load(ordering: .relaxed)),
            completed: completedCount.load(ordering: .relaxed),
            cancelled: cancelledCount.load(ordering: .relaxed), underruns: underrunCount.load(ordering: .relaxed),
            timingJumps: timingJumpCount.load(ordering: .relaxed), realtimeThread: grant.withLock { $0 })
    }

    /// The events reported since the last call, oldest first. Control side.
    public func drainEvents() -> [AudioEvent] {
        drainRetired()
        return eventLock.withLock { _ in
            var list: [AudioEvent] = []
            while let record = events.pop() {
                if let event = record.event { list.append(event) }
            }
            return list
        }
    }

    /// The instant stream position `frame` becomes audible by the current estimate, or `nil` before
    /// the first reading. For tests and diagnostics; only meaningful while no thread runs.
    public func audibleInstant(ofFrame frame: Int64) -> MonotonicInstant? {
        guard clock.isValid else { return nil }
        return MonotonicInstant(nanoseconds: clock.origin + format.nanoseconds(frames: frame))
    }

    // MARK: Realtime path

    /// Mixes and writes one period. The audio thread loops on it; call it yourself to drive an
    /// output without a thread (offline WAV rendering, tests). Returns `false` once the device is lost.
    @discardableResult
    public func process() -> Bool {
        let wasProcessing = processing.exchange(true, ordering: .acquiring)
        precondition(!wasProcessing, "AudioOutput.process() called while another process() or the audio thread runs")
        defer { processing.store(false, ordering: .releasing) }
        guard opened.load(ordering: .acquiring), !lost.load(ordering: .acquiring) else { return false }
        return mixPeriod()
    }

    private func mixPeriod() -> Bool {
        let periodFrames = format.periodFrames
        while let command = commands.pop() {
            if command.kind != .voice {
                applyCancellation(command)
            } else if activeCount < configuration.maximumVoices {
                active[activeCount] = _ActiveVoice(command: command, start: _ActiveVoice.unplaced)
                activeCount += 1
            } else {
                // Not reached: a voice is accepted only with a slot reserved (`reserveSlot()`), and a
                // voice refused for want of one says so in its outcome. Were it reached, the voice
                // is let go unheard, counted and handed back, never kept.
                droppedCount.add(1, ordering: .relaxed)
                noSlotCount.add(1, ordering: .relaxed)
                retire(command)
            }
        }
        let first = framesWritten
        let end = first + Int64(periodFrames)
        let fadeFrames = Int64(configuration.fadeOutFrames)
        buffer.update(repeating: 0, count: 2 * periodFrames)
        var index = 0
        while index < activeCount {
            var voice = active[index]
            // A voice is placed a period before the one it begins in: its frame is fixed while the
            // timing that put it there is current. The estimate moves later by the readings' jitter
            // when its earliest reading leaves the window; a voice placed only in its own period
            // could then find its frame already written and begin late.
            if voice.start == _ActiveVoice.unplaced, clock.isValid {
                let position = format.frames(nanoseconds: voice.command.audibleAt - clock.origin)
                if position < end + Int64(periodFrames) {
                    if position < first {
                        let lateness = format.nanoseconds(frames: first - position)
                        lateCount.add(1, ordering: .relaxed)
                        maximumLatenessValue.max(lateness, ordering: .relaxed)
                        report(.late, lateness)
                        voice.start = first
                    } else {
                        voice.start = position
                    }
                }
            }
            if voice.cancelAt != _ActiveVoice.none, voice.fadeStart == _ActiveVoice.unplaced {
                voice.fadeStart = fadePosition(of: voice, first: first, end: end)
            }
            if voice.fadeStart != _ActiveVoice.unplaced,
               voice.start == _ActiveVoice.unplaced || voice.fadeStart <= voice.start {
                // Cancelled before its first frame: it never sounds.
                retire(voice.command)
                cancelledCount.add(1, ordering: .relaxed)
                activeCount -= 1
                active[index] = active[activeCount]
                continue
            }
            if voice.start != _ActiveVoice.unplaced, voice.command.frames != nil || voice.command.program != nil {
                let voiceEnd = voice.start + Int64(voice.command.frameCount)
                let fading = voice.fadeStart != _ActiveVoice.unplaced && voice.fadeStart < voiceEnd
                let silentFrom = fading ? voice.fadeStart + fadeFrames : voiceEnd
                let gain = voice.command.gain
                // At full gain up to the fade, then down a linear ramp: frame k of the fade is at
                // (F − k) / (F + 1), so the ramp runs from the last full frame to the first silent one.
                let from = max(first, voice.start)
                let steady = min(end, fading ? voice.fadeStart : voiceEnd)
                let to = min(end, silentFrom, voiceEnd)
                // The voice's frames: read in place, or made now for this period (from..<to, the
                // frames after the last period's) into the scratch buffer, indexed from `from`.
                let frames: UnsafePointer<Float>
                let shift: Int
                if let rendered = voice.command.frames {
                    frames = rendered
                    shift = 0
                } else {
                    let sourceFrom = Int(from - voice.start)
                    if from < to, let program = voice.command.program {
                        program.pointee.render(into: scratch, from: sourceFrom, count: Int(to - from),
                                               cursor: &voice.cursor)
                    }
                    frames = UnsafePointer(scratch)
                    shift = 2 * sourceFrom
                }
                if from < steady {
                    for position in from..<steady {
                        let target = Int(position - first) * 2
                        let source = Int(position - voice.start) * 2 - shift
                        buffer[target] += frames[source] * gain
                        buffer[target + 1] += frames[source + 1] * gain
                    }
                }
                if fading, max(from, voice.fadeStart) < to {
                    let ramp = Float(fadeFrames + 1)
                    for position in max(from, voice.fadeStart)..<to {
                        let scale = gain * (Float(silentFrom - position) / ramp)
                        let target = Int(position - first) * 2
                        let source = Int(position - voice.start) * 2 - shift
                        buffer[target] += frames[source] * scale
                        buffer[target + 1] += frames[source + 1] * scale
                    }
                }
                if min(silentFrom, voiceEnd) <= end {
                    retire(voice.command)
                    if fading {
                        cancelledCount.add(1, ordering: .relaxed)
                    } else {
                        completedCount.add(1, ordering: .relaxed)
                    }
                    activeCount -= 1
                    active[index] = active[activeCount]
                    continue
                }
            }
            active[index] = voice
            index += 1
        }
        if muted.load(ordering: .relaxed) { buffer.update(repeating: 0, count: 2 * periodFrames) }

        let result = sink.write(UnsafePointer(buffer))
        switch result.status {
        case .written:
            break
        case .recoveredUnderrun:
            underrunCount.add(1, ordering: .relaxed)
            clock.reset()
            unplaceUnsounded(from: end)
            report(.underrun, result.timestamp?.instant.nanoseconds ?? CHapticsSystem_monotonicNow())
        case let .deviceLost(code):
            lost.store(true, ordering: .releasing)
            report(.deviceLost, Int64(code.rawValue))
            return false
        }
        framesWritten = end
        periodCount.add(1, ordering: .relaxed)
        if let timestamp = result.timestamp { observe(timestamp) }
        return true
    }

    /// Forgets the frames of the voices that have not sounded yet (placed at `frame` or later):
    /// the timing that placed them restarted, and the next periods place them again by the new one.
    private func unplaceUnsounded(from frame: Int64) {
        for index in 0..<activeCount where active[index].start != _ActiveVoice.unplaced && active[index].start >= frame {
            active[index].start = _ActiveVoice.unplaced
            if active[index].fadeStart != _ActiveVoice.unplaced && active[index].fadeStart >= frame {
                active[index].fadeStart = _ActiveVoice.unplaced
            }
        }
    }

    /// Marks the voices a cancellation reaches. Commands arrive in submission order, so the voices
    /// it reaches are all held already; a voice cancelled at or before its own instant is let go now.
    private func applyCancellation(_ command: _VoiceCommand) {
        var index = 0
        while index < activeCount {
            var voice = active[index]
            if command.cancels(group: voice.command.group), command.audibleAt < voice.cancelAt,
               voice.fadeStart == _ActiveVoice.unplaced {
                voice.cancelAt = command.audibleAt
                // Not sounded yet (unplaced, or placed in the period ahead) and cancelled at or
                // before its own instant: it never sounds.
                if voice.start == _ActiveVoice.unplaced || voice.start >= framesWritten, voice.cancelAt <= voice.command.audibleAt {
                    retire(voice.command)
                    cancelledCount.add(1, ordering: .relaxed)
                    activeCount -= 1
                    active[index] = active[activeCount]
                    continue
                }
            }
            active[index] = voice
            index += 1
        }
    }

    /// The stream position a cancelled voice's fade starts at, once its instant falls before `end`
    /// (`unplaced` while it lies beyond this period). Never before `first`: what was written stays.
    /// Without a timing reading a playing voice fades at once.
    private func fadePosition(of voice: _ActiveVoice, first: Int64, end: Int64) -> Int64 {
        guard clock.isValid else {
            return voice.start == _ActiveVoice.unplaced ? _ActiveVoice.unplaced : first
        }
        let origin = clock.origin
        if voice.cancelAt <= origin { return first }
        guard voice.cancelAt < origin + format.nanoseconds(frames: end) else { return _ActiveVoice.unplaced }
        return max(first, format.frames(nanoseconds: voice.cancelAt - origin))
    }

    private func observe(_ timestamp: AudioTimestamp) {
        if clock.observe(timestamp) {
            timingJumpCount.add(1, ordering: .relaxed)
            unplaceUnsounded(from: framesWritten)
        }
        latencyValue.store(clock.latency, ordering: .relaxed)
    }

    /// Hands a finished voice back for release on the control side. There is always room: every
    /// voice held has its place on the way back reserved (``reserveSlot()``), so none is ever
    /// kept or lost here.
    private func retire(_ command: _VoiceCommand) {
        let handedBack = retired.push(command)
        precondition(handedBack, "AudioOutput: a voice found the way back full although its place was reserved")
    }

    private func report(_ kind: _EventRecord.Kind, _ value: Int64) {
        _ = events.push(_EventRecord(kind: kind, value: value))
    }

    /// The realtime loop on the audio thread.
    private func runAudioThread() {
        let wasProcessing = processing.exchange(true, ordering: .acquiring)
        precondition(!wasProcessing, "the audio thread started while AudioOutput.process() runs")
        while running.load(ordering: .acquiring), mixPeriod() {}
        processing.store(false, ordering: .releasing)
    }

    // MARK: Control-side plumbing

    /// Reserves a voice slot for one more voice; `false` when every slot is held (by voices queued,
    /// playing or waiting, or finished and not yet released). The slots are fewer than the places
    /// on the way back, so a voice with a slot also has its place there. Lock-free: a reservation
    /// over the limit is taken back at once, so the count of valid ones never exceeds it.
    private func reserveSlot() -> Bool {
        // Acquiring what a release published: the slot and the place it freed on the way back are
        // seen as free by the audio thread, which takes this voice after the push that follows.
        guard heldCount.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue > configuration.maximumVoices else { return true }
        heldCount.wrappingSubtract(1, ordering: .releasing)
        return false
    }

    /// Voices accepted and not yet released (queued, playing, or waiting on the way back). For tests
    /// and diagnostics: 0 once the output is stopped.
    var heldVoiceCount: Int { heldCount.load(ordering: .relaxed) }

    /// Releases voices the audio thread finished with. Skips when another thread is at it.
    private func drainRetired() {
        _ = retireLock.withLockIfAvailable { _ in
            while let command = retired.pop() { release(command) }
        }
    }

    /// Releases every voice anywhere (no thread runs).
    private func releaseEverything() {
        retireLock.withLock { _ in
            while let command = retired.pop() { release(command) }
            while let command = commands.pop() { release(command) }
            for index in 0..<activeCount { release(active[index].command) }
            activeCount = 0
        }
    }

    private func release(_ command: _VoiceCommand) {
        guard let voice = command.voice else { return }
        Unmanaged<AudioVoice>.fromOpaque(voice).release()
        heldCount.wrappingSubtract(1, ordering: .releasing)
    }
}
