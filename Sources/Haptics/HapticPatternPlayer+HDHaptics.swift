import HapticsPatterns
import HapticsRendering
import HapticsScheduler
import HapticsSystem
import HapticsVoiceCoils

// On a pad with voice coils (a DualSense), a pattern player plays the pattern as HD haptics:
// waveforms on the actuators (``DualSenseHDHaptics``), not the kernel's rumble emulation. The
// player keeps the pattern's timeline on the pad's timeline channel (``EngineHDHaptics``), a
// scheduler channel that writes nothing, so position, loops, rate, pause and completion work as on
// any device; each control that moves the timeline hands the voice coils the pattern from the
// same pattern time at the same instant. The rumble output of such a pad is left out of the start.
extension HapticPatternPlayer {
    /// Whether a start plays the pattern as HD haptics on the pads that have voice coils and allow
    /// it (``DeviceSettings/hdHaptics``), rather than as rumble (default on). A pad whose voice
    /// coils cannot be opened (no access to its hidraw node, over USB no sound card) plays rumble;
    /// ``HapticEngine/hdHapticsFailure(on:)`` says why. Applies from the next start.
    public var usesHDHaptics: Bool {
        get { hdHapticsFlag.load(ordering: .relaxed) }
        set { hdHapticsFlag.store(newValue, ordering: .relaxed) }
    }

    /// Whether one of the player's device outputs is on a pad with voice coils: read without a
    /// lock or an allocation, so that a start on other pads looks no further.
    private var playsOnVoiceCoilPad: Bool {
        (0..<outputList.count).contains { index in
            let output = outputList[index]
            return output.voiceCoils == nil && engine.roster.hasVoiceCoils(output.channel.rawValue)
        }
    }

    /// The player's pads that have voice coils.
    private func voiceCoilDevices() -> [HapticDevice] {
        let channels = Set(outputs.filter { $0.voiceCoils == nil }.map(\.channel))
        let ids = engine.channelDevices.withLock { devices in devices.filter { channels.contains($0.channel) }.map(\.deviceID) }
        return ids.compactMap { engine.device($0) }.filter(\.hasVoiceCoils)
    }

    /// Opens the voice coils of the player's pads that play HD haptics, and gives the player an
    /// output on each one's timeline channel. Control side: opening a pad may take milliseconds
    /// (sysfs, the sound card, a thread), so ``prepare()`` does it ahead of the first start.
    func openVoiceCoils() {
        guard usesHDHaptics, playsOnVoiceCoilPad, pattern.events.contains(where: \.kind.isHaptic) else { return }
        let scheduler = engine.scheduler
        for device in voiceCoilDevices() {
            guard let profile = device.profile.map(EngineHDHaptics.timelineProfile(for:)),
                  let pad = engine.hdHaptics.pad(for: device, rumbleWrites: engine.rumbleWriteCount(of: device.id),
                                                 claimingTimeline: { () throws(EngineError) -> ChannelID in
                      try engine.claimTimelineChannel(profile: profile)
                  })
            else { continue }
            guard !outputs.contains(where: { $0.voiceCoils == device.id && $0.channel == pad.timeline
                && scheduler.progress(of: $0.player, at: nil) != nil })
            else { continue }
            let program = Renderer(profile: profile).render(pattern)
            guard let programID = try? scheduler.load(program) else { continue }
            guard let player = try? scheduler.makePlayer(program: programID, channel: pad.timeline) else {
                _ = scheduler.unload(programID)
                continue
            }
            let output = PlayerBinding(program: program, programID: programID, player: player, channel: pad.timeline,
                                       controlInterval: profile.controlInterval, hardwareGain: false, preparable: nil,
                                       voiceCoils: device.id)
            if !outputList.append(output) {
                scheduler.releasePlayer(player)
                _ = scheduler.unload(programID)
            }
        }
    }

    /// The pad whose voice coils `output` plays on now: for a timeline output, its pad while open
    /// on that channel and this player plays HD haptics; `nil` otherwise.
    private func voiceCoilPad(of output: PlayerBinding) -> EngineHDHaptics.Pad? {
        guard let id = output.voiceCoils, usesHDHaptics, engine.device(id)?.settings.hdHaptics == true,
              let pad = engine.hdHaptics.openPad(id), pad.timeline == output.channel,
              let channel = engine.channel(of: id), engine.roster.isPlayable(channel.rawValue)
        else { return nil }
        return pad
    }

    /// Whether `output` is played by a start: a device's output unless the device's voice coils
    /// play the pattern instead, a timeline output while its pad's voice coils play it.
    func startsOn(_ output: PlayerBinding) -> Bool {
        if output.voiceCoils != nil { return voiceCoilPad(of: output) != nil }
        guard plays(on: output) else { return false }
        guard usesHDHaptics, engine.roster.hasVoiceCoils(output.channel.rawValue) else { return true }
        let id = engine.roster.deviceID(output.channel.rawValue)
        return !outputs.contains { $0.voiceCoils?.rawValue == id && voiceCoilPad(of: $0) != nil }
    }

    /// The pattern as the voice coils play it: with the dynamic parameters sent at runtime in
    /// effect from its start (a replay renders only from the pattern time it resumes at, so they
    /// take effect from the instant they were sent), at `rate`: every time divided by it (the
    /// waveforms' frequencies stay).
    private func voiceCoilPattern(rate: Double, parameters: [DynamicParameterID: Double]) -> Pattern {
        var played = pattern
        for (id, value) in parameters.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            played.parameters.append(DynamicParameter(id: id, time: 0, value: value))
        }
        played.parameters.sort { $0.time < $1.time }
        return rate == 1 ? played : played.retimed(by: rate)
    }

    /// Plays the pattern on the voice coils of `outputs` (timeline outputs a start submitted),
    /// felt from `onset`, in place of what this player's last start played there.
    func startVoiceCoils(_ outputs: [PlayerBinding], onset: MonotonicInstant) {
        timeline.withLock { state in
            endVoiceCoils(&state, at: onset)
            state.voiceCoilsPausedAt = nil
            let pads = outputs.compactMap { output in voiceCoilPad(of: output).map { (output, $0) } }
            guard let first = pads.first else { return }
            let looping = lifecycle.withLock { $0.looping }
            state.voiceCoils = VoiceCoilTimeline(
                plays: [:], anchor: onset, position: .zero, rate: state.rate,
                loopLength: looping ? first.0.program.loopLength : nil)
            replayVoiceCoils(&state, at: onset, from: .zero, on: pads)
        }
    }

    /// Hands the pattern to the voice coils again at `instant` from pattern time `position`, with
    /// the timeline's rate and loop; each pad's earlier play is replaced. Under the timeline lock.
    private func replayVoiceCoils(_ state: inout LoopTimeline, at instant: MonotonicInstant, from position: Duration,
                                  on pads: [(PlayerBinding, EngineHDHaptics.Pad)]? = nil) {
        guard var voiceCoils = state.voiceCoils else { return }
        // Due later: what plays goes on until then (a pad plays one pattern at a time, so the
        // new one is handed over at its instant, by housekeeping).
        if pads == nil, instant > engine.scheduler.currentTime() + .milliseconds(1) {
            voiceCoils.anchor = instant
            voiceCoils.position = position
            state.voiceCoilsLater = voiceCoils
            engine.requestHousekeeping(at: instant)
            return
        }
        state.voiceCoilsLater = nil
        let pads = pads ?? outputs.compactMap { output in
            // Only outputs whose timeline still runs (another start may have replaced it on the pad).
            guard engine.scheduler.progress(of: output.player, at: nil).map({ $0.state != .stopped }) == true else { return nil }
            return voiceCoilPad(of: output).map { (output, $0) }
        }
        voiceCoils.anchor = instant
        voiceCoils.position = position
        voiceCoils.plays = [:]
        let rate = voiceCoils.rate
        let retimed = voiceCoilPattern(rate: rate, parameters: state.voiceCoilParameters)
        for (output, pad) in pads {
            guard let device = output.voiceCoils else { continue }
            let playback = HDPlayback(
                start: instant, offset: position / rate, gain: engine.voiceCoilGain(device) * voiceCoils.intensity,
                loopLength: voiceCoils.loopLength.map { $0 / rate })
            guard let play = try? pad.haptics.play(retimed, playback) else { continue }
            voiceCoils.plays[device] = play
            engine.hdHaptics.setCurrent(play, intensity: voiceCoils.intensity, on: device)
        }
        state.voiceCoils = voiceCoils
    }

    /// Hands the pads a timeline a control moved for later, once its instant has come: from the
    /// pattern time it reaches now. Housekeeping; under the timeline lock.
    func replayVoiceCoilsDue(_ state: inout LoopTimeline) {
        guard let later = state.voiceCoilsLater else { return }
        let now = engine.scheduler.currentTime()
        guard now + .milliseconds(1) >= later.anchor else {
            engine.requestHousekeeping(at: later.anchor)
            return
        }
        state.voiceCoils = later
        replayVoiceCoils(&state, at: now, from: later.position(at: now))
    }

    /// Ends what this player plays on voice coils at `time`. Under the timeline lock.
    func endVoiceCoils(_ state: inout LoopTimeline, at time: MonotonicInstant) {
        state.voiceCoilsLater = nil
        guard let voiceCoils = state.voiceCoils else { return }
        for play in voiceCoils.plays.values { play.end(at: time) }
        state.voiceCoils = nil
    }

    /// A stop at `time`: the voice coils fall silent then.
    func stopVoiceCoils(at time: MonotonicInstant) {
        timeline.withLock { state in
            endVoiceCoils(&state, at: time)
            state.voiceCoilsPausedAt = nil
        }
    }

    /// A pause at `time`: silent then, the pattern time kept for ``resumeVoiceCoils(at:)``.
    func pauseVoiceCoils(at time: MonotonicInstant) {
        timeline.withLock { state in
            guard let voiceCoils = state.voiceCoils else { return }
            state.voiceCoilsPausedAt = voiceCoils.position(at: time)
            let kept = voiceCoils
            endVoiceCoils(&state, at: time)
            state.voiceCoils = kept
            state.voiceCoils?.plays = [:]
        }
    }

    /// A resume at `time` of outputs that were paused: the voice coils go on from where they paused.
    func resumeVoiceCoils(at time: MonotonicInstant) {
        timeline.withLock { state in
            guard let position = state.voiceCoilsPausedAt, state.voiceCoils != nil else { return }
            state.voiceCoilsPausedAt = nil
            replayVoiceCoils(&state, at: time, from: position)
        }
    }

    /// A seek at `time` to send position `offset` (felt one lead time later): the voice coils play
    /// from there while playing, or resume from there while paused.
    func seekVoiceCoils(to offset: Duration, at time: MonotonicInstant) {
        timeline.withLock { state in
            guard state.voiceCoils != nil else { return }
            let lead = Duration.nanoseconds(outputs.first { $0.voiceCoils != nil }?.program.leadTimeNanoseconds ?? 0)
            let felt = offset - lead
            if state.voiceCoilsPausedAt != nil {
                state.voiceCoilsPausedAt = max(felt, .zero)
                return
            }
            // Pattern time 0 comes one lead time after a seek to 0.
            let instant = felt < .zero ? time - felt : time
            replayVoiceCoils(&state, at: instant, from: max(felt, .zero))
        }
    }

    /// A rate change at `time`: the voice coils go on from the pattern time reached then, at `rate`.
    func setVoiceCoilsRate(_ rate: Double, at time: MonotonicInstant) {
        timeline.withLock { state in
            guard var voiceCoils = state.voiceCoils else { return }
            let position = state.voiceCoilsPausedAt ?? voiceCoils.position(at: time)
            voiceCoils.rate = rate
            state.voiceCoils = voiceCoils
            if state.voiceCoilsPausedAt == nil { replayVoiceCoils(&state, at: time, from: position) }
        }
    }

    /// The intensity control at `time`: the waveform's scale on every pad from then on (a value
    /// above 1 is 1: the waveform is at full scale at intensity 1).
    func setVoiceCoilsIntensity(_ value: Double, at time: MonotonicInstant) {
        timeline.withLock { state in
            guard state.voiceCoils != nil else { return }
            let intensity = min(max(value, 0), 1)
            state.voiceCoils?.intensity = intensity
            for (device, play) in state.voiceCoils!.plays {
                play.setGain(engine.voiceCoilGain(device) * intensity, at: time)
                engine.hdHaptics.setCurrent(play, intensity: intensity, on: device)
            }
        }
    }

    /// A dynamic parameter other than the intensity at `time`: the voice coils go on from the
    /// pattern time reached then with it in effect.
    func setVoiceCoilsParameter(_ id: DynamicParameterID, _ value: Double, at time: MonotonicInstant) {
        timeline.withLock { state in
            state.voiceCoilParameters[id] = value
            guard let voiceCoils = state.voiceCoils, state.voiceCoilsPausedAt == nil else { return }
            replayVoiceCoils(&state, at: time, from: voiceCoils.position(at: time))
        }
    }

    /// The loop switch at `time`: on, the voice coils loop from the pattern time reached then; off,
    /// the pass playing then plays to the pattern's end and none follows.
    func setVoiceCoilsLooping(_ looping: Bool, at time: MonotonicInstant) {
        timeline.withLock { state in
            guard var voiceCoils = state.voiceCoils, (voiceCoils.loopLength != nil) != looping else { return }
            let position = state.voiceCoilsPausedAt ?? voiceCoils.position(at: time)
            voiceCoils.loopLength = looping ? outputs.first { $0.voiceCoils != nil }?.program.loopLength : nil
            state.voiceCoils = voiceCoils
            if state.voiceCoilsPausedAt == nil { replayVoiceCoils(&state, at: time, from: position) }
        }
    }
}

extension Pattern {
    /// The pattern played `rate` times as fast: every event time, duration, envelope time,
    /// parameter and curve time divided by `rate`; intensities and sharpness stay.
    func retimed(by rate: Double) -> Pattern {
        var retimed = self
        for index in retimed.events.indices {
            retimed.events[index].time /= rate
            retimed.events[index].duration = retimed.events[index].duration.map { $0 / rate }
            retimed.events[index].parameters.attackTime = retimed.events[index].parameters.attackTime.map { $0 / rate }
            retimed.events[index].parameters.decayTime = retimed.events[index].parameters.decayTime.map { $0 / rate }
            retimed.events[index].parameters.releaseTime = retimed.events[index].parameters.releaseTime.map { $0 / rate }
        }
        for index in retimed.parameters.indices { retimed.parameters[index].time /= rate }
        for index in retimed.curves.indices {
            retimed.curves[index].time /= rate
            for point in retimed.curves[index].controlPoints.indices { retimed.curves[index].controlPoints[point].time /= rate }
        }
        for index in retimed.triggerEvents.indices { retimed.triggerEvents[index].time /= rate }
        return retimed
    }
}
