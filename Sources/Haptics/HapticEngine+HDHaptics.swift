import HapticsPatterns
import HapticsScheduler
import HapticsSystem
import HapticsVoiceCoils

// HD haptics on pads with voice coils (DualSense): pattern players play on them by default (see
// `HapticPatternPlayer.usesHDHaptics`); these calls choose per pad, say why a pad cannot, and
// play a pattern on one pad's voice coils directly.
extension HapticEngine {
    /// Stops what plays on the voice coils of device `id` (its players' timelines too), if open.
    func silenceVoiceCoils(of id: Int, at now: MonotonicInstant) {
        guard let pad = hdHaptics.openPad(HapticDevice.ID(rawValue: id)) else { return }
        _ = scheduler.stopPlayers(on: pad.timeline, at: now)
        pad.haptics.stop()
    }

    /// Chooses how the selected pads with voice coils play patterns: as HD haptics, waveforms on
    /// their actuators (`true`, the default), or as rumble (`false`); see
    /// ``DeviceSettings/hdHaptics``. Over USB, `audioCard` names the pad's sound card when it is not
    /// found from the pad (``DeviceSettings/audioCard``). What the pads play now on their voice
    /// coils stops; their next start opens them again as set (and says why it cannot in
    /// ``hdHapticsFailure(on:)``). Kept while a pad is unplugged. Control side.
    public func setHDHaptics(_ enabled: Bool, audioCard: String? = nil, for devices: DeviceSelection) {
        let channels = updateSettings(of: devices) {
            $0.hdHaptics = enabled
            $0.audioCard = audioCard
        }
        let now = scheduler.currentTime()
        for channel in channels {
            let id = roster.deviceID(channel.rawValue)
            silenceVoiceCoils(of: id, at: now)
            hdHaptics.close(HapticDevice.ID(rawValue: id))
        }
    }

    /// Chooses how one pad plays patterns; see `setHDHaptics(_:audioCard:for:)` with a selection.
    public func setHDHaptics(_ enabled: Bool, audioCard: String? = nil, for device: HapticDevice) {
        setHDHaptics(enabled, audioCard: audioCard, for: DeviceSelection(device))
    }

    /// Why the voice coils of `device` could not be opened for HD haptics since the engine started
    /// (its patterns play as rumble then), or `nil`: they are open, not asked for yet, or the pad
    /// has none.
    public func hdHapticsFailure(on device: HapticDevice) -> HDHapticsError? {
        hdHaptics.failure(of: device.id)
    }

    /// Whether the voice coils of `device` are open and play its patterns as HD haptics.
    public func playsHDHaptics(on device: HapticDevice) -> Bool {
        hdHaptics.openPad(device.id) != nil
    }


    /// Plays `pattern` on the voice coils of `device` from `instant` (now when it has passed), in
    /// place of what plays there, outside any player: nothing follows its timeline, and a player
    /// starting on the pad replaces it. Opens the voice coils first if need be (blocks for
    /// milliseconds the first time), as the pad's settings say (``DeviceSettings/audioCard``).
    ///
    /// - Throws: ``HDHapticsError`` when the pad has no voice coils or they cannot be opened; the
    ///   engine must be running (``HDHapticsError/node(_:)`` with `.closed` otherwise).
    @discardableResult
    public func playHDHaptics(_ pattern: Pattern, on device: HapticDevice, at instant: MonotonicInstant = .now,
                              gain: Double = 1) throws(HDHapticsError) -> HDPlay {
        let pad = try openVoiceCoils(of: device)
        let scale = voiceCoilGain(device.id) * gain
        // A player's timeline there has ended: the pad plays this instead.
        _ = scheduler.stopPlayers(on: pad.timeline, at: instant)
        let play = try pad.haptics.play(pattern, HDPlayback(start: instant, gain: scale))
        hdHaptics.setCurrent(play, intensity: min(max(gain, 0), 1), on: device.id)
        return play
    }

    /// The scale of a waveform on the voice coils of `device`: the engine's gain times the pad's.
    func voiceCoilGain(_ device: HapticDevice.ID) -> Double {
        gain * (channel(of: device).map { roster.gain($0.rawValue) } ?? 0)
    }

    /// Plays what every pad plays on its voice coils at the engine's and the pad's gains as they
    /// are now (from the next frame written).
    func applyVoiceCoilGains() {
        for (device, play, intensity) in hdHaptics.currentPlays { play.setGain(voiceCoilGain(device) * intensity) }
    }

    /// Stops what plays on the voice coils of `device` now, if they are open.
    public func stopHDHaptics(on device: HapticDevice) {
        silenceVoiceCoils(of: device.id.rawValue, at: scheduler.currentTime())
    }

    /// Counts the writes the engine made to `device`'s evdev node: each may have been a rumble,
    /// which takes the pad's actuators (see `DualSenseHDHaptics`). `nil` for another kind of output.
    func rumbleWriteCount(of device: HapticDevice.ID) -> (@Sendable () -> Int)? {
        let output = channelDevices.withLock { $0.first { $0.deviceID == device }?.output.device }
        guard let evdev = output as? EvdevActuator else { return nil }
        return { evdev.statistics.writes }
    }

    /// The open voice coils of `device`, opened now if need be, whatever its settings say.
    func openVoiceCoils(of device: HapticDevice) throws(HDHapticsError) -> EngineHDHaptics.Pad {
        guard device.hasVoiceCoils, let path = device.path, let profile = device.profile.map(EngineHDHaptics.timelineProfile(for:)) else {
            throw .node(.noAdaptiveTriggers(
                eventNode: device.path ?? device.name, vendor: device.inputID?.vendor ?? 0, product: device.inputID?.product ?? 0))
        }
        if let pad = hdHaptics.pad(for: device, ignoringSettings: true, rumbleWrites: rumbleWriteCount(of: device.id),
                                   claimingTimeline: { () throws(EngineError) -> ChannelID in
            try claimTimelineChannel(profile: profile)
        }) {
            return pad
        }
        throw hdHaptics.failure(of: device.id) ?? .node(.closed(node: path))
    }
}
