import HapticsScheduler
import HapticsSoundAnalysis
import HapticsSystem
import HapticsVoiceCoils

/// Live haptics from sound: the audio a game is about to play drives the rumble of its devices as
/// it goes. Made by ``HapticEngine/makeLiveSoundFeed(sampleRate:channelCount:options:voiceCoilOptions:on:)``.
///
/// The game hands each block of samples to ``feed(_:presentationTime:)`` with the instant its
/// first frame is heard on the engine's clock. A ``SoundEnvelopeFollower`` turns it into motor
/// levels every control interval (2 ms by default): the sound below the crossover drives the low
/// (strong) motor, the sound above it the high (weak) one. Each level is a direct motor level, as
/// ``HapticEngine/setMotorLevels(low:high:)`` sets one, sent to each device its lead time (rise
/// time) before the sound it follows is heard, so that both are felt and heard together. The
/// engine gain scales the levels like any rumble.
///
/// A selected pad whose voice coils play HD haptics (a DualSense) takes the sound itself instead of
/// rumble levels: shaped for its actuators (``VoiceCoilSoundDrive``) and fed to the engine's HD
/// haptics of it, each sample at the instant of its sound (``voiceCoilDevices``). Its voice coils
/// are opened when the feed is made; once the engine's change (the engine stopped, a pad lost or
/// set to rumble), every pad gets rumble: make the feed again.
///
/// Each level holds ``holdTime`` at most: a feed that stops leaves no pad rumbling. ``stop()``
/// ends the levels at the end of the sound fed so far; `stop()` of the engine, switching haptics
/// off and the app becoming inactive end them at once, the levels already sent for later sound
/// included. Other changes (a gain, a device switched off) apply to the levels sent after them,
/// so feed the sound when it is queued for output, not seconds ahead. Sound fed less than a device's lead
/// time before it is heard is felt late by the difference: its levels start at once, spaced as the
/// sound. Not thread-safe: feed it
/// from one thread (the game's audio thread). `feed` takes no lock and allocates nothing.
public final class LiveSoundFeed {
    /// The engine it drives.
    public let engine: HapticEngine
    /// The devices it drives.
    public let devices: DeviceSelection
    /// How long each level holds without the next: four control intervals, at least 10 ms.
    public let holdTime: Duration
    private var follower: SoundEnvelopeFollower
    /// When the sound of the last level sent is heard, if any.
    private var lastHeard: MonotonicInstant?
    /// The selected pads whose voice coils the sound drives instead of their rumble: one drive per
    /// pad, on the engine's own HD haptics of it, with the pad's channel.
    private let drives: [(device: HapticDevice.ID, channel: Int, drive: VoiceCoilSoundDrive)]
    /// The engine's voice-coil generation the drives were made in (``EngineHDHaptics/generation``).
    private let generation: Int

    init(engine: HapticEngine, follower: SoundEnvelopeFollower, devices: DeviceSelection,
         drives: [(device: HapticDevice.ID, channel: Int, drive: VoiceCoilSoundDrive)] = [], generation: Int = 0) {
        self.engine = engine
        self.generation = generation
        self.follower = follower
        self.devices = devices
        self.drives = drives
        let interval = Int64(follower.options.controlInterval * 1_000_000_000)
        holdTime = .nanoseconds(max(10_000_000, 4 * interval))
    }

    /// The pads whose voice coils it drives with the sound itself (HD haptics), not rumble.
    public var voiceCoilDevices: [HapticDevice.ID] { drivesHold ? drives.map(\.device) : [] }

    /// Frames per second of the audio it follows.
    public var sampleRate: Int { follower.sampleRate }
    /// Channels per frame of that audio (1 or 2, interleaved).
    public var channelCount: Int { follower.channelCount }

    /// Follows one block of interleaved samples whose first frame is heard at `presentationTime`
    /// (the engine's clock), and sends the levels it yields to the devices. Blocks continue one
    /// another. Returns `.scheduled(feltAt:)` with the instant the block's first level is felt
    /// (when its sound is heard, or later when it came too late for the device's lead time), or why
    /// nothing is felt: `.notPlayed` with the engine's silence reason (the levels are not sent;
    /// with a gain of 0, the ones sent before are ended), `.noDevice` when the selection has no
    /// device, `.queueFull` when the scheduler's queue is, `.noRealDevice` when only the simulated
    /// fallback device took them. A block shorter than a control interval may yield no level:
    /// then `.scheduled(feltAt: presentationTime)`.
    @discardableResult
    public func feed(_ samples: UnsafeBufferPointer<Float>, presentationTime: MonotonicInstant) -> PlaybackOutcome {
        let reason = engine.silenceReason()
        if let reason, reason != .muted {
            follower.reset()
            return .notPlayed(reason)
        }
        let muted = reason == .muted
        var outcome: PlaybackOutcome?
        if drivesHold {
            for (_, channel, drive) in drives where engine.roster.isPlayable(channel) {
                let gain = muted ? 0 : engine.gain * engine.roster.gain(channel)
                if !drive.feed(samples, presentationTime: presentationTime, gain: Float(gain)) {
                    outcome = .notPlayed(.queueFull)
                } else if outcome == nil {
                    outcome = .scheduled(feltAt: presentationTime)
                }
            }
            // Every pad selected takes the sound on its voice coils: no rumble to follow.
            let roster = engine.roster
            if !(0..<roster.upperBound).contains(where: { roster.isPlayable($0) && included($0) }) {
                if muted { return .notPlayed(.muted) }
                return outcome ?? .notPlayed(.noDevice)
            }
        }
        let hold = holdTime.nanoseconds
        let now = engine.scheduler.currentTime()
        follower.process(samples, presentationTime: presentationTime) { frame in
            guard outcome == nil || outcome!.isScheduled else { return }
            // A block heard sooner than a device's lead time starts now, its levels still spaced
            // as its sound: felt late by the difference, never dropped, never bunched.
            let late = now.advanced(by: frame.time.nanoseconds - presentationTime.nanoseconds)
            let result = send(low: muted ? 0 : frame.strong, high: muted ? 0 : frame.weak, heardAt: frame.time,
                              notBefore: late, hold: hold)
            if outcome == nil || !result.isScheduled { outcome = result }
        }
        if muted { return .notPlayed(.muted) }
        return outcome ?? .scheduled(feltAt: presentationTime)
    }

    /// Ends the levels at the end of the sound fed so far (they are heard up to there), and forgets
    /// that sound: the next block starts afresh.
    public func stop() {
        if drivesHold { for drive in drives { drive.drive.stop() } }
        follower.reset()
        guard let last = lastHeard else { return }
        lastHeard = nil
        for channel in 0..<engine.roster.upperBound where engine.roster.isLive(channel) && included(channel) {
            let lead = engine.vocabulary.first?.slot(channel).leadTime ?? 0
            let end = max(last, engine.scheduler.currentTime().advanced(by: lead))
            _ = try? engine.scheduler.setMotorLevels(low: 0, high: 0, on: ChannelID(rawValue: channel),
                                                     at: end.advanced(by: -lead), until: end.advanced(by: -lead))
        }
    }

    /// Whether the channel's device gets the sound's rumble: selected, and not driven on its voice coils.
    private func included(_ channel: Int) -> Bool {
        let device = engine.roster.deviceID(channel)
        guard devices.contains(device) else { return false }
        return !(drivesHold && drives.contains { $0.channel == channel && $0.device.rawValue == device })
    }

    /// Whether the drives still drive the engine's open voice coils: no pad's were closed since
    /// they were made (a pad lost, its settings changed, the engine stopped). Once they have, every
    /// selected pad gets rumble: make the feed again. One atomic load; no lock.
    private var drivesHold: Bool {
        !drives.isEmpty && engine.hdHaptics.generation.load(ordering: .acquiring) == generation
    }

    /// Sends one frame's levels to every selected device, each its lead time before `heard` but not
    /// before `notBefore`.
    private func send(low: Double, high: Double, heardAt heard: MonotonicInstant, notBefore: MonotonicInstant,
                      hold: Int64) -> PlaybackOutcome {
        let roster = engine.roster
        let scheduler = engine.scheduler
        let gain = engine.gain
        let stops = low <= 0 && high <= 0
        var reached = false
        var reachedReal = false
        var felt = heard
        var group: ImmediateGroup?
        for channel in 0..<roster.upperBound where roster.isPlayable(channel) && included(channel) {
            let scale = engine.appliesGain(channel) ? 1 : gain * roster.gain(channel)
            let lead = engine.vocabulary.first?.slot(channel).leadTime ?? 0
            let start = max(heard.advanced(by: -lead), notBefore)
            if group == nil { group = scheduler.beginImmediateGroup(now: nil) }
            guard (try? scheduler.setMotorLevels(low: low * scale, high: high * scale, on: ChannelID(rawValue: channel),
                                                 at: start, until: stops ? start : start.advanced(by: hold),
                                                 in: &group!)) == true
            else {
                scheduler.endImmediateGroup(group!)
                return .notPlayed(.queueFull)
            }
            lastHeard = max(lastHeard ?? heard, heard)
            if !reached { felt = start.advanced(by: lead) }
            reached = true
            if roster.isReal(channel) { reachedReal = true }
        }
        if let group { scheduler.endImmediateGroup(group) }
        guard reached else { return .notPlayed(.noDevice) }
        if !reachedReal { return .notPlayed(.noRealDevice) }
        return .scheduled(feltAt: felt)
    }
}

extension HapticEngine {
    /// A live feed of the sound the game is about to play, driving `devices` (every device by
    /// default) from it: the rumble of most, the voice coils of pads that play HD haptics (opened
    /// now: make it while the game loads); see ``LiveSoundFeed``. `sampleRate` and `channelCount`
    /// (1, or 2 interleaved) describe the samples it will be fed; `options` tune the rumble's
    /// follower, `voiceCoilOptions` the voice coils' shaper.
    ///
    /// - Throws: ``SoundAnalysisError`` naming the rate, channel count or option out of its range.
    public func makeLiveSoundFeed(
        sampleRate: Int, channelCount: Int, options: SoundEnvelopeFollower.Options = .init(),
        voiceCoilOptions: VoiceCoilShaper.Options = .init(), on devices: DeviceSelection = .all
    ) throws(SoundAnalysisError) -> LiveSoundFeed {
        let follower = try SoundEnvelopeFollower(sampleRate: sampleRate, channelCount: channelCount, options: options)
        // Pads with voice coils that play HD haptics take the sound itself, shaped for them.
        var drives: [(device: HapticDevice.ID, channel: Int, drive: VoiceCoilSoundDrive)] = []
        let generation = hdHaptics.generation.load(ordering: .acquiring)
        let selected = channelDevices.withLock { $0.filter { devices.contains($0.deviceID.rawValue) }.map { ($0.deviceID, $0.channel) } }
        for (id, channel) in selected {
            guard let device = device(id), device.hasVoiceCoils, device.settings.hdHaptics,
                  let pad = try? openVoiceCoils(of: device)
            else { continue }
            drives.append((id, channel.rawValue, try VoiceCoilSoundDrive(haptics: pad.haptics, sampleRate: sampleRate,
                                                                         channelCount: channelCount, options: voiceCoilOptions)))
        }
        // A pad closed while the drives were made: they would drive nothing.
        guard hdHaptics.generation.load(ordering: .acquiring) == generation else {
            return LiveSoundFeed(engine: self, follower: follower, devices: devices)
        }
        return LiveSoundFeed(engine: self, follower: follower, devices: devices, drives: drives, generation: generation)
    }
}
