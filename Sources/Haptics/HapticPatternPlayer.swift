import HapticsAudio
import HapticsPatterns
import HapticsRendering
import HapticsScheduler
import Synchronization
import HapticsSystem

/// Plays one pattern (e.g. decoded from an AHAP file) on every output of an engine, with the
/// controls of a media player: start, stop, pause, resume, loop, seek, rate, dynamic parameters
/// and parameter curves, and a lifecycle to watch: `isPlaying`, `position`, and a
/// `completionHandler` called once per start when it finishes or is stopped.
///
/// The pattern is rendered and loaded when the player is made; the controls are lock-free
/// submissions. A device added to the engine while the player plays joins it in phase (see
/// `HapticEngine.addOutput`). Releasing the player stops it and frees what it loaded.
///
/// A player made from a pattern file (`HapticEngine.makePlayer(contentsOf:)`) also plays the
/// pattern's sound on the engine's audio output, on the same timeline: each audio event is heard at
/// the pattern's onset plus its time, as the haptic events are felt. Stopping (`stop`, releasing
/// the player, the engine's `stop()`, the app becoming inactive) silences the sound from the same
/// instant as the haptics, with a short fade; `seek` silences it until the next `start`.
///
/// While the player loops (`setLooping(true)`) at rate 1, every pass repeats the sound: pass `n`
/// is heard at the onset + `n` × the loop length, the duration of the program the scheduler wraps
/// at (with several outputs, the first that played). The engine's housekeeping queues each pass
/// ahead of time, off the realtime and audio threads. A rate other than 1 plays the sound once per
/// `start`, as before: see `setPlaybackRate(_:at:)`.
///
/// While the engine traces (`HapticEngine.startTracing()`), every sound the player places on the
/// audio output is recorded as `audible` at its instant, under the id of its first output that
/// plays, as that output's haptic stages are.
public final class HapticPatternPlayer: Sendable {
    /// The engine it plays on.
    public let engine: HapticEngine
    /// The pattern as given.
    public let pattern: Pattern
    /// Per output it plays on (made for, or joined since): the program rendered for it, its loaded
    /// id and its player.
    let outputList: PlayerOutputs
    /// The outputs, in the order they came.
    var outputs: [PlayerBinding] { outputList.all }
    /// Start tags, the starts not yet ended, the controls a joining device must catch up with, and
    /// the completion handler. Control side; never taken on the realtime or audio thread.
    let lifecycle = OrderedMutex<PlayerLifecycle>(PlayerLifecycle())
    /// The devices it plays on: the ones it was made for, and those that join while it plays.
    let selection: DeviceSelection
    /// The pattern with its waveforms loaded, when it came from a file and has sound.
    let sound: AudioPattern?
    /// The sound's voices, made at the output rate the first time they are needed.
    private let voices = OrderedMutex<(sampleRate: Int, voices: [ScheduledVoice])?>(nil)
    /// The engine's sound budget this player's sound holds, given back when the player goes.
    private let soundCharge: SoundMemoryCharge?
    private let playsSoundFlag = Atomic<Bool>(true)
    let hdHapticsFlag = Atomic<Bool>(true)
    /// The tag of every voice this player schedules, so that stopping it cancels exactly its sound.
    let soundGroup = AudioVoiceGroup.unique()
    /// The loop switch, rate and sound passes as the control side tracks them, so that housekeeping
    /// can repeat the sound on each loop pass. Never taken on the realtime or audio thread.
    let timeline = OrderedMutex<LoopTimeline>(LoopTimeline())

    init(engine: HapticEngine, pattern: Pattern, sound: AudioPattern? = nil, soundCharge: SoundMemoryCharge? = nil,
         devices selection: DeviceSelection = .all) throws {
        try pattern.validateTimes()
        self.engine = engine
        self.pattern = pattern
        self.sound = sound?.hasSound == true ? sound : nil
        self.soundCharge = soundCharge
        self.selection = selection
        var outputs: [PlayerBinding] = []
        let devices = engine.channelDevices.withLock { $0.filter { selection.contains($0.deviceID.rawValue) } }
        do {
            for device in devices {
                let program = Renderer(profile: device.profile).render(pattern)
                let programID = try engine.scheduler.load(program)
                do {
                    let player = try engine.scheduler.makePlayer(program: programID, channel: device.channel)
                    outputs.append(PlayerBinding(
                        program: program, programID: programID, player: player, channel: device.channel,
                        controlInterval: device.profile.controlInterval,
                        hardwareGain: device.hardwareGain != nil, preparable: device.preparable))
                } catch {
                    _ = engine.scheduler.unload(programID)
                    throw error
                }
            }
        } catch {
            for output in outputs {
                engine.scheduler.releasePlayer(output.player)
                _ = engine.scheduler.unload(output.programID)
            }
            throw error
        }
        outputList = PlayerOutputs(outputs, capacity: engine.configuration.scheduler.maximumChannels)
        engine.patternPlayers.register(self)
    }

    deinit {
        engine.patternPlayers.unregister(ObjectIdentifier(self))
        let now = engine.scheduler.currentTime()
        for output in outputs {
            _ = engine.scheduler.stop(output.player, at: now)
            engine.scheduler.releasePlayer(output.player)
            _ = engine.scheduler.unload(output.programID)
        }
        silenceSound(at: now)
        stopVoiceCoils(at: now)
        // Released, the player stops: its trigger effects end with it.
        if timeline.withLock({ $0.ownsTriggers }) { stopTriggers(at: now) }
    }

    /// How early the first command goes out before the felt onset, the longest over the outputs.
    public var leadTime: Duration { .nanoseconds(outputs.map(\.program.leadTimeNanoseconds).max() ?? 0) }

    /// The pattern's length as played (longest program, from the first command to the final stop).
    public var duration: Duration { .nanoseconds(outputs.map(\.program.durationNanoseconds).max() ?? 0) }

    /// The programs rendered for each output, in output order.
    public var programs: [Program] { outputs.map(\.program) }

    /// Gets every device ready for this pattern (evdev: its effects uploaded now, so starting it
    /// costs no upload) and renders its sound for the attached audio output. Control side: may
    /// block. Unused preparations expire like the generators'.
    public func prepare() {
        openVoiceCoils()
        if let audio = engine.audioState.load() { _ = voices(sampleRate: audio.sampleRate) }
        let live = outputs.filter(plays(on:))
        engine.prepare(live.compactMap { output in output.preparable.map { ($0, output.program, output.channel) } })
    }

    /// Whether `start` also plays the pattern's sound (default on; only players made from a file
    /// with audio events have sound).
    public var playsSound: Bool {
        get { playsSoundFlag.load(ordering: .relaxed) }
        set { playsSoundFlag.store(newValue, ordering: .relaxed) }
    }

    /// Whether the pattern has sound this player can play (audio events, loaded from its file).
    public var hasSound: Bool { sound != nil }

    /// Starts playing: as soon as possible, or felt at `feltAt`. Devices lost since the player was
    /// made are skipped; devices added since then play it too (they joined the player when added).
    /// Starting a player that plays (or is paused) restarts it from the beginning: the earlier
    /// start's completion says `.stopped`.
    /// A player with sound plays it too (see `start(at:)`, which reports on it).
    @discardableResult
    public func start(feltAt: MonotonicInstant? = nil) -> PlaybackOutcome {
        start(at: feltAt).haptics
    }

    /// For apps that play the pattern's sound themselves: their sound is heard at `audibleAt`, and
    /// the pattern's start is felt then. This player's own sound is not played.
    @discardableResult
    public func start(withSoundAudibleAt audibleAt: MonotonicInstant) -> PlaybackOutcome {
        start(at: audibleAt, withSound: false).haptics
    }

    /// Starts playing haptics and sound on one timeline: the pattern's start is felt and heard at
    /// `onset`, or as soon as both can make it (now + the larger of the longest actuator lead time
    /// and the audio output's `minimumLeadTime`). Sound that cannot play is left out of the timing
    /// and never delays the haptics; the outcome says what happened to each half. An onset more
    /// than `HapticEngine.schedulingHorizon` (one hour) ahead is refused, both halves
    /// `.notPlayed(.onsetOutOfRange)`; so is it by `start(feltAt:)` and `start(withSoundAudibleAt:)`.
    @discardableResult
    public func start(at onset: MonotonicInstant?) -> PlaybackOutcome.WithSound {
        start(at: onset, withSound: playsSound)
    }

    private func start(at requested: MonotonicInstant?, withSound: Bool) -> PlaybackOutcome.WithSound {
        if let refusal = HapticEngine.refusal(intensity: 1, onset: requested, now: engine.scheduler.currentTime()) {
            return PlaybackOutcome.WithSound(haptics: .notPlayed(refusal.haptics),
                                             audio: .notPlayed(withSound ? refusal.audio : .notRequested))
        }
        var haptics: PlaybackOutcome?
        var playable: [PlayerBinding] = []
        if let reason = engine.silenceReason() {
            haptics = .notPlayed(reason)
        } else {
            openVoiceCoils()
            let outputs = self.outputs
            playable.reserveCapacity(outputs.count)
            for output in outputs where startsOn(output) && output.program.commands.contains(where: { !$0.command.isSilent }) {
                playable.append(output)
            }
            if playable.isEmpty { haptics = .notPlayed(.unsupported) }
        }
        let state = engine.soundState(requested: withSound, hasSound: sound != nil)
        let now = engine.scheduler.currentTime()
        var longest: Int64 = 0
        for output in playable { longest = max(longest, output.program.leadTimeNanoseconds) }
        var lead = Duration.nanoseconds(longest)
        if let audio = state.audio { lead = max(lead, audio.output.minimumLeadTime) }
        lead = min(lead, HapticEngine.schedulingHorizon)
        let earliest = now + lead
        let onset = max(requested ?? earliest, earliest)
        if haptics == nil {
            haptics = .scheduled(feltAt: onset)
            // Registered before the first submission, so that no ending can come before it.
            let tag = beginStart(of: playable.map(\.player))
            var started = 0
            // A start due now is applied at once, its first level written from this thread,
            // unless another thread is processing (`Scheduler.beginImmediateGroup()`).
            var group = engine.scheduler.beginImmediateGroup(now: now)
            for output in playable {
                let start = onset.advanced(by: -output.program.leadTimeNanoseconds)
                // The gain is finite in 0…1, so the level is never refused.
                let level = output.hardwareGain ? 1 : engine.gain * engine.roster.gain(output.channel.rawValue)
                guard (try? engine.scheduler.start(output.player, at: start, tag: tag, intensity: level, in: &group)) == true else {
                    haptics = .notPlayed(.queueFull)
                    break
                }
                started += 1
            }
            engine.scheduler.endImmediateGroup(group)
            abandonStart(tag, of: playable.dropFirst(started).map(\.player))
            startVoiceCoils(playable.prefix(started).filter { $0.voiceCoils != nil }, onset: onset)
        }
        // The sound follows the first output that plays: traced under its player's id (the first
        // output's when none plays, so that a cancellation finds it).
        let soundPlayer = (playable.first ?? (outputList.count > 0 ? outputList[0] : nil))?.player.traceSlot ?? -1
        // Under the loop lock, so that a housekeeping renewal of the previous start's passes is
        // either queued before this cancellation (and reached by it) or sees the new start.
        let audio = timeline.withLock { loop -> AudioOutcome in
            loop.soundPasses = nil
            // A restart replaces what an earlier start still has to play, as it does for the haptics.
            silenceSound(at: onset)
            let audio: AudioOutcome
            if let reason = state.reason {
                audio = .notPlayed(reason)
            } else if let output = state.audio {
                let placed = voices(sampleRate: output.sampleRate)
                let queued = scheduleSound(placed, on: output.output, patternStart: onset, calledAt: now,
                                           player: soundPlayer)
                audio = HapticEngine.audioOutcome(refusal: queued.refusal, onset: onset)
            } else {
                audio = .notPlayed(.noAudioOutput)
            }
            // Loop passes repeat the sound when both halves play, at rate 1, on the timeline of the
            // first output that plays (outputs of other profiles may wrap at other lengths).
            if case .scheduled = audio, case .scheduled = haptics, loop.rate == 1,
               let program = playable.first?.program, let length = program.loopLength {
                loop.soundPasses = LoopTimeline.Passes(onset: onset, length: length, leadTime: .nanoseconds(program.leadTimeNanoseconds), scheduled: 0,
                                               player: soundPlayer)
                renewSoundLoop(&loop)
            }
            // The trigger effects follow the same output's timeline, at any rate.
            let program = playable.first?.program
            startTriggerPasses(&loop, onset: onset, length: .nanoseconds(program?.durationNanoseconds ?? 0),
                               leadTime: .nanoseconds(program?.leadTimeNanoseconds ?? 0))
            return audio
        }
        // The start's ending wakes housekeeping to deliver its completion (the scheduler asks for
        // it); housekeeping is asked now only for what it must do while the pattern plays: queue
        // the sound's and the triggers' loop passes, start voice coils that come later. A woken
        // thread can take the processor from the driver's worker that sends this start's report.
        if case .scheduled = haptics, hasPassesToWatch {
            engine.requestHousekeeping()
        }
        return PlaybackOutcome.WithSound(haptics: haptics ?? .notPlayed(.unsupported), audio: audio)
    }

    /// The sound's voices at `sampleRate`, made once (the waveforms were read when the player was
    /// made; making voices cannot fail, and costs nothing in the events' durations).
    ///
    /// A player made before `attachAudio` loaded its clips at 48 kHz; an output at another rate
    /// has them converted here, once, and the converted clips are charged to the engine's sound
    /// budget whatever is left: the sound was accepted when the player was made.
    func voices(sampleRate: Int) -> [ScheduledVoice] {
        guard let sound else { return [] }
        return voices.withLock { cache in
            if let cache, cache.sampleRate == sampleRate { return cache.voices }
            let converted = sound.converted(to: sampleRate)
            if sound.sampleRate != sampleRate { soundCharge?.add(converted.clipByteCount) }
            let rendered = AudioRenderer(sampleRate: sampleRate).voices(for: converted)
            cache = (sampleRate, rendered)
            return rendered
        }
    }

    /// Hands `voices` to `audio` for a pass of the pattern heard from `patternStart`, tagged with
    /// this player's sound group, as `AudioOutput.enqueue(_:patternStart:gain:group:)` does; returns
    /// how many were accepted and why the first refused one was. While tracing, each voice that will sound is recorded as audible at
    /// its instant, asked for at `called`, under `player` (`HapticEngine.recordAudible`): each one
    /// accepted, or with `wholePass` (a caller that cancels a pass it could not queue whole) all of
    /// them when all were accepted and none otherwise. Not tracing, it costs one load. Lock-free,
    /// allocation-free.
    func scheduleSound(_ voices: [ScheduledVoice], on audio: AudioOutput, patternStart: MonotonicInstant,
                       calledAt called: MonotonicInstant, player: Int32,
                       wholePass: Bool = false) -> (accepted: Int, refusal: AudioVoiceRefusal?) {
        guard engine.isTracing else { return audio.enqueue(voices, patternStart: patternStart, group: soundGroup) }
        var accepted = 0
        var refusal: AudioVoiceRefusal?
        for placed in voices {
            let audible = patternStart.advanced(by: placed.timeOffset)
            do {
                try audio.enqueue(placed.voice, audibleAt: audible, group: soundGroup)
            } catch {
                refusal = refusal ?? error
                continue
            }
            if !wholePass { engine.recordAudible(at: audible, calledAt: called, player: player) }
            accepted += 1
        }
        if wholePass && accepted == voices.count {
            for placed in voices {
                engine.recordAudible(at: patternStart.advanced(by: placed.timeOffset), calledAt: called, player: player)
            }
        }
        return (accepted, refusal)
    }

    /// Stops at `time` (now when `nil`); the devices go silent and so does the sound: a voice still
    /// to come never sounds, one playing fades out over the audio output's `fadeOutFrames` from the
    /// position heard at `time`. `false` when a queue was full.
    ///
    /// Any instant is accepted, here and by the other controls (`setLooping`, `seek`,
    /// `setPlaybackRate`, `send`): one in the past takes effect at once, and one beyond
    /// `SchedulerLimits.instants` (±146 years of uptime) is clamped to it.
    ///
    /// The start being stopped reports `.stopped` to the `completionHandler`.
    @discardableResult
    public func stop(at time: MonotonicInstant? = nil) -> Bool {
        let time = controlInstant(time)
        endTriggerPasses(at: time, whilePassing: false)
        stopVoiceCoils(at: time)
        let haptics = outputs.allSatisfy { engine.scheduler.stop($0.player, at: time) }
        return endSoundLoop { silenceSound(at: time) } && haptics
    }

    /// A control call's instant: now when `nil`, else clamped to `SchedulerLimits.instants`, so that
    /// the sound-loop bookkeeping's ±1 ns steps around it cannot overflow.
    func controlInstant(_ time: MonotonicInstant?) -> MonotonicInstant {
        guard let time else { return engine.scheduler.currentTime() }
        return min(max(time, SchedulerLimits.instants.lowerBound), SchedulerLimits.instants.upperBound)
    }

    /// Cancels this player's sound from `time` on the engine's audio output (nothing to do without
    /// sound or output). Lock-free.
    @discardableResult
    func silenceSound(at time: MonotonicInstant) -> Bool {
        guard sound != nil, let audio = engine.audioState.load() else { return true }
        return cancelSound(on: audio.output, at: time)
    }

    /// Cancels this player's sound on `audio` from `time`; while tracing, the sounds it keeps
    /// from being heard are taken back from the trace (`HapticEngine.withdrawAudible`). `false`
    /// when the output's queue was full (nothing is taken back then).
    @discardableResult
    func cancelSound(on audio: AudioOutput, at time: MonotonicInstant) -> Bool {
        guard audio.cancel(group: soundGroup, at: time) else { return false }
        if engine.isTracing {
            let outputs = outputList, count = outputList.count
            engine.withdrawAudible(from: time) { player in
                (0..<count).contains { outputs[$0].player.traceSlot == player }
            }
        }
        return true
    }

    /// Ends the sound passes of the current start, then runs `cancel` under the same lock, so that
    /// no renewal queues a pass after the cancellation.
    func endSoundLoop(_ cancel: () -> Bool) -> Bool {
        timeline.withLock { loop in
            loop.soundPasses = nil
            return cancel()
        }
    }

    /// Loops the pattern from its end back to its start until stopped (or stops looping from
    /// `time`: the pass playing then finishes, and none follows). At rate 1 each pass repeats the
    /// sound, heard at the onset + n × the loop length. Turning looping off takes back a pass
    /// already queued whose wrap (one lead time before it is heard) comes at or after `time`; the
    /// cancellation fades whatever of the sound still plays when that pass would have begun (only
    /// a sound longer than the haptics' loop still plays then). Control side: may take a short lock.
    @discardableResult
    public func setLooping(_ enabled: Bool, at time: MonotonicInstant? = nil) -> Bool {
        let time = controlInstant(time)
        lifecycle.withLock { $0.looping = enabled }
        let submitted = outputs.allSatisfy { engine.scheduler.setLoop($0.player, enabled, at: time) }
        setVoiceCoilsLooping(enabled, at: time)
        timeline.withLock { loop in
            loop.setLooping(enabled, at: time)
            if enabled {
                renewSoundLoop(&loop)
                renewTriggerPasses(&loop)
            } else {
                withdrawSoundPasses(&loop, from: time, keepingTimeline: true)
                withdrawTriggerPasses(&loop, from: time)
            }
        }
        return submitted
    }

    /// Jumps to `offset` into the pattern: any offset is accepted, negative ones are the start and
    /// ones beyond `duration` the end (a looping player goes on from the start). The sound is
    /// silenced at `time` (faded out like `stop`) and stays silent until the next `start`: a
    /// recorded clip cannot resume mid-way in step with a jump, and a sound out of step with its
    /// haptics is worse than none.
    @discardableResult
    public func seek(to offset: Duration, at time: MonotonicInstant? = nil) -> Bool {
        let time = controlInstant(time)
        let offset = max(offset, .zero)
        let haptics = outputs.allSatisfy { engine.scheduler.seek($0.player, to: offset, at: time) }
        seekVoiceCoils(to: offset, at: time)
        endTriggerPasses(at: time, whilePassing: true)
        return endSoundLoop { silenceSound(at: time) } && haptics
    }

    /// Plays faster (> 1) or slower (< 1), `rate` in 1/64…64. Haptics only: the sound keeps
    /// the timing it was started with. A looping sound stops repeating at a rate change: a recorded
    /// clip cannot follow the haptics' new pass lengths, so a pass queued to begin after `time` is
    /// taken back and none follows (the pass playing then finishes). While the rate is not 1, a
    /// `start` plays the sound once, on the first pass; the next `start` at rate 1 repeats it again.
    ///
    /// - Throws: `PlayerError.invalidRate` when `rate` is outside `SchedulerLimits.playbackRates`
    ///   (1/64…64), NaN or infinite; nothing changes.
    @discardableResult
    public func setPlaybackRate(_ rate: Double, at time: MonotonicInstant? = nil) throws(PlayerError) -> Bool {
        guard SchedulerLimits.playbackRates.contains(rate) else { throw .invalidRate(rate) }
        let time = controlInstant(time)
        lifecycle.withLock { $0.rate = rate }
        // The rate is in range, so no output refuses it.
        let submitted = outputs.allSatisfy { (try? engine.scheduler.setRate($0.player, rate, at: time)) == true }
        setVoiceCoilsRate(rate, at: time)
        timeline.withLock { loop in
            guard rate != loop.rate else { return }
            loop.rate = rate
            // A wrap due exactly at `time` still happens there: the scheduler re-anchors at `time`
            // before it wraps.
            withdrawSoundPasses(&loop, from: time + .nanoseconds(1), keepingTimeline: false)
            if loop.triggerPasses != nil {
                loop.triggerPasses = nil
                stopTriggers(at: time)
            }
        }
        return submitted
    }

    /// Sends a dynamic parameter to the playing pattern (e.g. `.hapticIntensityControl` 0.5 halves
    /// it). The intensity control is multiplied by the engine gain. Any finite value is accepted
    /// (the scheduler clamps what it re-maps to 0…1, see `Scheduler.setParameter`).
    ///
    /// - Throws: `PlayerError.invalidParameterValue` when `value` is NaN or infinite; nothing is sent.
    @discardableResult
    public func send(_ parameter: DynamicParameterID, value: Double, at time: MonotonicInstant? = nil) throws(PlayerError) -> Bool {
        guard value.isFinite else { throw .invalidParameterValue(parameter, value) }
        let time = controlInstant(time)
        lifecycle.withLock { $0.parameters[parameter] = value }
        if parameter == .hapticIntensityControl {
            setVoiceCoilsIntensity(value, at: time)
        } else {
            setVoiceCoilsParameter(parameter, value, at: time)
        }
        return outputs.allSatisfy { output in
            let sent = parameter == .hapticIntensityControl && !output.hardwareGain
                ? value * engine.gain * engine.roster.gain(output.channel.rawValue) : value
            // Finite times a gain in 0…1: never refused.
            return (try? engine.scheduler.setParameter(output.player, parameter, value: sent, at: time)) == true
        }
    }

    /// Sends a parameter curve as one submission per output: its control points are stored in the
    /// scheduler's preallocated curve space and the realtime thread interpolates them (linearly) at
    /// each output's control tick (its profile's `controlInterval`, at least 1 ms), from the first
    /// point's instant to the last's; the parameter then keeps the last value. The curve's time 0
    /// is at `start` (now when `nil`) plus the curve's `time`. An intensity curve is multiplied by
    /// the engine gain, as `send(_:value:at:)` is.
    ///
    /// A curve has at most `SchedulerConfiguration.maximumCurvePoints` points (1,024 by default),
    /// in time order. One curve per parameter plays at a time: a new one replaces it from its first
    /// point. A curve of a parameter the haptics do not use (audio ones) is checked and sends
    /// nothing. `false` when a queue was full or every curve slot (`maximumCurves`, 32 by default)
    /// was held — counted in `Scheduler.statistics` (`dropped`, `droppedCurves`), never blocking.
    ///
    /// - Throws: `PlayerError.curveTimeOutOfRange` when the curve's time or a control point's time
    ///   is negative, not finite, or after `HapticEngine.maximumPatternDuration` (one hour);
    ///   `PlayerError.curveTooLong` for too many points; `PlayerError.curveOutOfOrder` when a point
    ///   comes before the one ahead of it; `PlayerError.invalidParameterValue` when a value, or a
    ///   step between two points over their span, is NaN or infinite. A refused curve sends nothing.
    @discardableResult
    public func send(_ curve: ParameterCurve, startingAt start: MonotonicInstant? = nil) throws(PlayerError) -> Bool {
        let limit = HapticEngine.maximumPatternDuration.patternSeconds
        guard curve.time >= 0 && curve.time <= limit else { throw .curveTimeOutOfRange(seconds: curve.time) }
        for point in curve.controlPoints where !(point.time >= 0 && point.time <= limit) {
            throw .curveTimeOutOfRange(seconds: point.time)
        }
        let origin = controlInstant(start)
        let outputs = outputs
        let gain = engine.gain
        // Checked once with the largest scale any output uses, so that a refused curve sends nothing.
        let scales = outputs.map { curve.id == .hapticIntensityControl && !$0.hardwareGain ? gain : 1 }
        do throws(SchedulerError) {
            try engine.scheduler.validateCurve(curve, scale: scales.max() ?? 1)
        } catch {
            throw PlayerError(curveRefusal: error, id: curve.id)
        }
        var ok = true
        for (output, scale) in zip(outputs, scales) where ok {
            // Checked above: never refused.
            ok = (try? engine.scheduler.setCurve(output.player, curve, startingAt: origin, scale: scale)) == true
        }
        return ok
    }
}

extension HapticEngine {
    /// Renders `pattern` for every output and loads it; the player plays it. A pattern given this
    /// way plays no sound (its `AudioCustom` waveforms have no folder to come from): use
    /// `makePlayer(contentsOf:)` for that. Throws `EngineError.patternTimeOutOfRange` when a time
    /// of the pattern is negative, not finite, or ends after `maximumPatternDuration` (one hour),
    /// and `SchedulerError` when the scheduler is full.
    public func makePlayer(pattern: Pattern) throws -> HapticPatternPlayer {
        try HapticPatternPlayer(engine: self, pattern: pattern)
    }

    /// Renders `pattern` for the selected devices only and loads it; see `makePlayer(pattern:)`.
    public func makePlayer(pattern: Pattern, on devices: DeviceSelection) throws -> HapticPatternPlayer {
        try HapticPatternPlayer(engine: self, pattern: pattern, devices: devices)
    }

    /// Reads a pattern file (AHAP) and makes its player, with its sound: every `AudioCustom`
    /// waveform is read now, relative to the file's folder and confined to it, so a missing or bad
    /// WAV is an error here (`AudioLoadError`, naming the file and the event), never silence at
    /// play time. Also throws `PatternError` for a bad file and `EngineError`/`SchedulerError`
    /// when the scheduler is full.
    ///
    /// The pattern's sound must fit `Configuration.soundBudgetPerPattern` and what the sound of
    /// the engine's other players and its cues leave of `Configuration.soundBudget`; the first
    /// event that does not is a located `AudioLoadError`. Releasing the player gives its share back.
    public func makePlayer(contentsOf path: String, on devices: DeviceSelection = .all) throws -> HapticPatternPlayer {
        try makePlayer(on: devices) { (loader: AudioPatternLoader) throws(AudioLoadError) in
            try loader.load(contentsOf: path)
        }
    }

    /// Makes the player of `pattern` with its sound, as if it were read from a file at
    /// `patternPath` (which need not exist): every `AudioCustom` waveform is read now, relative to
    /// that path's folder and confined to it, as ``makePlayer(contentsOf:on:)`` reads them. For a
    /// pattern made in memory that goes with sound files, such as one derived from a sound.
    public func makePlayer(pattern: Pattern, soundRelativeTo patternPath: String,
                           on devices: DeviceSelection = .all) throws -> HapticPatternPlayer {
        try makePlayer(on: devices) { (loader: AudioPatternLoader) throws(AudioLoadError) in
            do throws(AudioPatternError) {
                return try loader.load(pattern: pattern, patternPath: patternPath)
            } catch {
                throw .sound(error)
            }
        }
    }

    /// Loads a pattern's sound with `load` within the engine's sound budgets and makes its player.
    private func makePlayer(
        on devices: DeviceSelection, loading load: (AudioPatternLoader) throws(AudioLoadError) -> AudioPattern
    ) throws -> HapticPatternPlayer {
        let rate = audioState.load()?.sampleRate ?? 48_000
        let perPattern = AudioMemoryBudget(scope: .pattern, limit: configuration.soundBudgetPerPattern)
        let (sound, charge) = try soundMemory.load { (engine: AudioMemoryBudget) throws(AudioLoadError) in
            try load(AudioPatternLoader(outputRate: rate, budgets: [perPattern, engine]))
        } cost: { $0.soundByteCount }
        return try HapticPatternPlayer(engine: self, pattern: sound.pattern, sound: sound, soundCharge: charge, devices: devices)
    }
}
