import HapticsDevices
import HapticsPatterns
import HapticsRendering
import HapticsScheduler
import HapticsSystem

/// How a pattern player's start ended, as its `completionHandler` hears it.
public enum PlayerCompletion: Sendable, Hashable {
    /// A non-looping player played to its end on every device it started on (or was sought
    /// to its end).
    case finished
    /// It was stopped first: `stop`, a restart, the engine stopping or turned off, the app going
    /// inactive, another feedback replacing it on a `replace` channel, or its device going away.
    case stopped
}

/// A pattern player's control-side lifecycle: which starts have not ended yet, and the controls a
/// device joining while it plays must be brought to.
struct PlayerLifecycle {
    /// A start whose end is awaited: the scheduler players it started that have not ended yet.
    struct Start {
        /// Each player once; a start has one per output, a handful, so a list is searched (a set
        /// would cost a start more to make than every search it saves).
        private(set) var waiting: [PlayerID]
        var finished = false

        init(waiting: [PlayerID]) {
            self.waiting = waiting
        }

        /// Takes `player` off the list: whether it was on it.
        mutating func remove(_ player: PlayerID) -> Bool {
            guard let index = waiting.firstIndex(of: player) else { return false }
            waiting.remove(at: index)
            return true
        }

        mutating func insert(_ player: PlayerID) {
            if !waiting.contains(player) { waiting.append(player) }
        }
    }

    var lastTag: Int64 = 0
    /// The tag of the latest start.
    var currentTag: Int64 = 0
    var starts: [Int64: Start] = [:]
    var looping = false
    var rate = 1.0
    /// The last value sent per parameter since the latest start (the intensity is reset by a start).
    var parameters: [DynamicParameterID: Double] = [:]
    var handler: (@Sendable (PlayerCompletion) -> Void)?
}

extension HapticPatternPlayer {
    /// Called once per start that played, with how it ended: `.finished` when a non-looping player
    /// reached its end, `.stopped` when something stopped it first (a looping player only ever
    /// stops). Called on the engine's housekeeping thread (woken by the end itself; for a manually
    /// driven engine, in `performHousekeeping()`) or in the engine's `stop()` — never on the
    /// realtime thread, and
    /// never under a lock of the engine, so it may call back into the player. A start that played
    /// nowhere (`.notPlayed`) has no completion. `nil` (the default) reports nothing.
    public var completionHandler: (@Sendable (PlayerCompletion) -> Void)? {
        get { lifecycle.withLock { $0.handler } }
        set { lifecycle.withLock { $0.handler = newValue } }
    }

    /// Whether the pattern plays on a device now (as the realtime thread last performed it: a start
    /// counts from the instant it is processed, an end from its end). Any thread, no lock.
    public var isPlaying: Bool { progressState() == .playing }

    /// Whether the player is paused (`pause(at:)`), keeping its position for `resume(at:)`.
    public var isPaused: Bool { progressState() == .paused }

    /// The pattern offset the devices are driven at now: rate aware, within the current pass of a
    /// looping player, the position kept while paused, and where the next start begins while
    /// stopped (0, unless `seek` moved it). With devices of different profiles, the first that
    /// plays tells. It is the send position: what it drives is felt `leadTime` later; `seek(to:)`
    /// takes the same offsets. Any thread, no lock.
    public var position: Duration {
        let now = engine.scheduler.currentTime()
        var first: Duration?
        for index in 0..<outputList.count {
            guard let progress = engine.scheduler.progress(of: outputList[index].player, at: now) else { continue }
            if progress.state != .stopped { return progress.position }
            if first == nil { first = progress.position }
        }
        return first ?? .zero
    }

    /// Pauses at `time` (now when `nil`): the devices go silent at once and the player keeps its
    /// position, for `resume(at:)` to continue from, in phase. The start has not ended (no
    /// completion yet); `stop` ends it as stopped. The sound is silenced like `seek`'s: a recorded
    /// clip cannot resume mid-way in step, so it stays silent until the next `start`. A player that
    /// does not play is paused where its next start begins. `false` when a queue was full.
    @discardableResult
    public func pause(at time: MonotonicInstant? = nil) -> Bool {
        let time = controlInstant(time)
        let haptics = outputs.allSatisfy { engine.scheduler.pause($0.player, at: time) }
        pauseVoiceCoils(at: time)
        endTriggerPasses(at: time, whilePassing: true)
        return endSoundLoop { silenceSound(at: time) } && haptics
    }

    /// Resumes a paused player at `time` (now when `nil`), in phase: the position it paused at
    /// plays at `time`, with the rate, loop switch and parameters it had. Haptics only (see
    /// `pause(at:)`). A player that is not paused is left alone. `false` when a queue was full.
    @discardableResult
    public func resume(at time: MonotonicInstant? = nil) -> Bool {
        let time = controlInstant(time)
        let resumed = outputs.allSatisfy { engine.scheduler.resume($0.player, at: time) }
        resumeVoiceCoils(at: time)
        return resumed
    }

    /// Whether `output` still plays: its channel is playable and its scheduler player was not
    /// released with the device it was made for (a channel serves the next device then, through
    /// the output that device joined with).
    func plays(on output: PlayerBinding) -> Bool {
        engine.roster.isPlayable(output.channel.rawValue) && engine.scheduler.progress(of: output.player, at: nil) != nil
    }

    /// The most advanced state over the outputs: playing, else paused, else stopped.
    private func progressState() -> PlayerProgress.State {
        var paused = false
        for index in 0..<outputList.count {
            switch engine.scheduler.progress(of: outputList[index].player, at: nil)?.state {
            case .playing: return .playing
            case .paused: paused = true
            default: continue
            }
        }
        return paused ? .paused : .stopped
    }

    // MARK: Starts and their ends

    /// Registers a start on `players` before it is submitted; returns its tag. Once submitted, its
    /// ending (the completion handler) is housekeeping's to deliver, woken by the scheduler when
    /// the ending is pushed; its loop passes are housekeeping's to watch while it plays
    /// (``hasPassesToWatch``), asked for by the caller after the submission, whose writes the
    /// wake of that thread must not delay.
    func beginStart(of players: [PlayerID]) -> Int64 {
        lifecycle.withLock { lifecycle in
            lifecycle.lastTag += 1
            let tag = lifecycle.lastTag
            lifecycle.currentTag = tag
            if !lifecycle.parameters.isEmpty { lifecycle.parameters[.hapticIntensityControl] = nil }
            if !players.isEmpty { lifecycle.starts[tag] = PlayerLifecycle.Start(waiting: players) }
            return tag
        }
    }

    /// Whether housekeeping has something to do for this player: a start whose ending has not
    /// been delivered yet, or a looping sound whose next passes are still to queue. A player
    /// that is not playing needs nothing, so an engine whose players are all idle sleeps.
    var needsWatching: Bool {
        lifecycle.withLock { !$0.starts.isEmpty }
            || hasPassesToWatch
    }

    /// Whether housekeeping has passes to queue while the player plays: its sound's or its
    /// triggers' loop passes, or voice coils that start later.
    var hasPassesToWatch: Bool {
        timeline.withLock { $0.soundPasses != nil || $0.triggerPasses != nil || $0.voiceCoilsLater != nil }
    }

    /// Forgets the outputs a start could not be submitted to.
    func abandonStart(_ tag: Int64, of players: [PlayerID]) {
        guard !players.isEmpty else { return }
        lifecycle.withLock { lifecycle in
            guard var start = lifecycle.starts[tag] else { return }
            for player in players { _ = start.remove(player) }
            lifecycle.starts[tag] = start.waiting.isEmpty ? nil : start
        }
    }

    /// Takes one output's ending; once every output of the start has ended, calls the handler.
    func handle(_ ending: PlayerEnding) {
        let completion = lifecycle.withLock { lifecycle -> (PlayerCompletion, (@Sendable (PlayerCompletion) -> Void)?)? in
            guard var start = lifecycle.starts[ending.tag], start.remove(ending.player) else { return nil }
            if ending.reason == .finished { start.finished = true }
            guard start.waiting.isEmpty else {
                lifecycle.starts[ending.tag] = start
                return nil
            }
            lifecycle.starts[ending.tag] = nil
            return (start.finished ? .finished : .stopped, lifecycle.handler)
        }
        if let (result, handler) = completion { handler?(result) }
    }

    // MARK: Joining

    /// Makes `device` one of this player's outputs; when the player plays or is paused there, the
    /// device is brought to its rate, loop switch and parameters and started (or paused) at the
    /// position the others are at, so that it plays in phase with them. Control side.
    func join(_ device: EngineDevice) {
        let scheduler = engine.scheduler
        guard selection.contains(device.deviceID.rawValue) else { return }
        // A channel serves another device once its players were released: only a live output
        // on it means this player already plays there.
        guard !outputs.contains(where: { $0.channel == device.channel && scheduler.progress(of: $0.player, at: nil) != nil })
        else { return }
        let program = Renderer(profile: device.profile).render(pattern)
        guard let programID = try? scheduler.load(program) else { return }
        guard let player = try? scheduler.makePlayer(program: programID, channel: device.channel) else {
            _ = scheduler.unload(programID)
            return
        }
        let output = PlayerBinding(
            program: program, programID: programID, player: player, channel: device.channel,
            controlInterval: device.profile.controlInterval,
            hardwareGain: device.hardwareGain != nil, preparable: device.preparable)
        let others = outputs
        guard outputList.append(output) else {
            scheduler.releasePlayer(player)
            _ = scheduler.unload(programID)
            return
        }
        guard let reference = others.first(where: { scheduler.progress(of: $0.player, at: nil).map { $0.state != .stopped } ?? false })
        else { return }
        if let preparable = output.preparable { engine.prepare([(preparable, program, device.channel)]) }

        let now = scheduler.currentTime()
        guard let progress = scheduler.progress(of: reference.player, at: now), progress.state != .stopped else { return }
        let controls = lifecycle.withLock { lifecycle -> (PlayerLifecycle, Bool) in
            let awaited = progress.state == .playing && lifecycle.starts[lifecycle.currentTag] != nil
            if awaited { lifecycle.starts[lifecycle.currentTag]?.insert(player) }
            return (lifecycle, awaited)
        }
        let (state, awaited) = controls
        if state.rate != 1 { _ = try? scheduler.setRate(player, state.rate, at: now) }
        if state.looping { _ = scheduler.setLoop(player, true, at: now) }
        var parameters = state.parameters
        if parameters[.hapticIntensityControl] == nil { parameters[.hapticIntensityControl] = 1 }
        for (id, value) in parameters {
            let sent = id == .hapticIntensityControl && !output.hardwareGain
                ? value * engine.gain * engine.roster.gain(device.channel.rawValue) : value
            _ = try? scheduler.setParameter(player, id, value: sent, at: now)
        }
        // The same pattern time is felt on both: each device sends it its own lead time early.
        let offset = max(.zero, progress.position + .nanoseconds(program.leadTimeNanoseconds - reference.program.leadTimeNanoseconds))
        _ = scheduler.seek(player, to: offset, at: now)
        if progress.state == .paused {
            _ = scheduler.pause(player, at: now)
        } else if !scheduler.start(player, at: now, tag: awaited ? state.currentTag : 0), awaited {
            abandonStart(state.currentTag, of: [player])
        }
    }
}

extension HapticEngine {
    /// Every pattern player that plays or is paused joins the device on `channel` in phase (see
    /// `HapticPatternPlayer`); the others get it as an output for their next start. Control side.
    /// `addOutput` calls it once the device is installed and its preparations are made.
    func playersJoin(channel: ChannelID) {
        guard let device = channelDevices.withLock({ $0.first { $0.channel == channel } }) else { return }
        for player in patternPlayers.players { player.join(device) }
    }

    /// Hands the endings the realtime side reported to their players, which call their completion
    /// handlers. Housekeeping (and `stop()`); never the realtime thread.
    func deliverPlayerCompletions() {
        var endings: [PlayerEnding] = []
        guard scheduler.drainEndings(into: &endings) > 0 else { return }
        var owners: [PlayerID: HapticPatternPlayer] = [:]
        for player in patternPlayers.players {
            for output in player.outputs { owners[output.player] = player }
        }
        for ending in endings { owners[ending.player]?.handle(ending) }
    }
}
