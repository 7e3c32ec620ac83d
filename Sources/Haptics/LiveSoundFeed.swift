import HapticsScheduler
import HapticsSoundAnalysis
import HapticsSystem

/// Live haptics from sound: the audio a game is about to play drives the rumble of its devices as
/// it goes. Made by ``HapticEngine/makeLiveSoundFeed(sampleRate:channelCount:options:on:)``.
///
/// The game hands each block of samples to ``feed(_:presentationTime:)`` with the instant its
/// first frame is heard on the engine's clock. A ``SoundEnvelopeFollower`` turns it into motor
/// levels every control interval (2 ms by default): the sound below the crossover drives the low
/// (strong) motor, the sound above it the high (weak) one. Each level is a direct motor level, as
/// ``HapticEngine/setMotorLevels(low:high:)`` sets one, sent to each device its lead time (rise
/// time) before the sound it follows is heard, so that both are felt and heard together. The
/// engine gain scales the levels like any rumble.
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

    init(engine: HapticEngine, follower: SoundEnvelopeFollower, devices: DeviceSelection) {
        self.engine = engine
        self.follower = follower
        self.devices = devices
        let interval = Int64(follower.options.controlInterval * 1_000_000_000)
        holdTime = .nanoseconds(max(10_000_000, 4 * interval))
    }

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

    private func included(_ channel: Int) -> Bool {
        devices.contains(engine.roster.deviceID(channel))
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
    /// A live feed of the sound the game is about to play, driving the rumble of `devices` (every
    /// device by default) from it: see ``LiveSoundFeed``. `sampleRate` and `channelCount` (1, or 2
    /// interleaved) describe the samples it will be fed; `options` tune the follower.
    ///
    /// - Throws: ``SoundAnalysisError`` naming the rate, channel count or option out of its range.
    public func makeLiveSoundFeed(
        sampleRate: Int, channelCount: Int, options: SoundEnvelopeFollower.Options = .init(), on devices: DeviceSelection = .all
    ) throws(SoundAnalysisError) -> LiveSoundFeed {
        let follower = try SoundEnvelopeFollower(sampleRate: sampleRate, channelCount: channelCount, options: options)
        return LiveSoundFeed(engine: self, follower: follower, devices: devices)
    }
}
