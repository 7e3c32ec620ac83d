import HapticsDevices
import HapticsPatterns
import HapticsRendering
import HapticsScheduler
import HapticsSystem

// Prepared plays at any intensity. A feedback reaches a device with the intensity parameter
// `level(step:gain:hardwareGain:)`: the impact intensity in whole steps of `intensityStep`, times
// the engine gain (stepped again) on a device that has no gain of its own. So an item can only play
// at 16 levels per device, and preparing it can upload exactly the levels its plays will send:
// the intensity it was last played at (1 before any play) like any preparation, evicting the least
// recently used levels when the device is full, and an impact's other 15 ahead of time, only into
// slots that are free (`PreparableActuator.prepareAhead`), nearest to that intensity first. Levels
// prepared ahead are the first a device evicts, so they never push out what another item asked for.
extension HapticEngine {
    /// The step in which feedback intensities reach the devices: 1/16 (0.0625).
    ///
    /// An impact's intensity is rounded to the nearest step (0.7 plays as 11/16 = 0.6875); any
    /// intensity above 0 is at least one step. On a device without a gain of its own (no `FF_GAIN`),
    /// the stepped intensity times ``gain`` is rounded to a step again (intensity 1 at gain 0.5 is
    /// 8/16; intensity 0.7 at gain 0.5 is 11/16 · 0.5 → 6/16). Above half intensity a step is at
    /// most an eighth of the level, below what a hand tells apart on a rumble motor (the smallest
    /// amplitude differences people are reported to feel are about 10–30 %); below it the motor's
    /// magnitude floor narrows the steps further. 16 steps are what the slots allow: an ff-memless pad has 16, one
    /// is kept for streaming, so a prepared impact has 15 of its 16 levels uploaded when no other
    /// item needs the slots — every one but the farthest from the intensity last played, which is
    /// asked for (and evicts) once it is played and prepared again. A finer step would leave more
    /// intensities streamed (an upload on the realtime thread) for differences nobody feels.
    public static let intensityStep: Double = 1.0 / Double(intensitySteps)

    /// How many non-silent steps an intensity has (1/``intensityStep``).
    static let intensitySteps = 16

    /// `intensity` (finite, clamped to 0…1) in whole steps, rounded to the nearest (ties up);
    /// 0 only for 0.
    @inline(__always)
    static func steps(_ intensity: Double) -> Int {
        guard intensity > 0 else { return 0 }
        // Positive, at most 16: adding ½ and truncating rounds to the nearest, ties up, exactly as
        // `rounded(.toNearestOrAwayFromZero)` does (the sum never crosses a whole number the true
        // one does not), without a call into libm on a play's way to its write.
        return max(1, Int(min(intensity, 1) * Double(intensitySteps) + 0.5))
    }

    /// The intensity parameter a play of `step` sends to a device: the stepped intensity where the
    /// device applies the gain itself, else the stepped intensity times `gain`, stepped again. The
    /// same on every kind of device, so a prepared level is found whatever plays it.
    @inline(__always)
    static func level(step: Int, gain: Double, hardwareGain: Bool) -> Double {
        let intensity = Double(step) / Double(intensitySteps)
        // A gain of 1 keeps every step: `steps(intensity)` is `step` again.
        return hardwareGain || gain == 1 ? intensity : Double(steps(intensity * gain)) / Double(intensitySteps)
    }
}

extension HapticEngine {
    /// Prepares a vocabulary item: every preparable device gets the levels its plays will send
    /// ready (evdev: effects uploaded now, so the play is one `write()`), and the item is marked
    /// prepared for `Configuration.prepareLifetime`. Control side: may block on uploads.
    func prepare(_ entry: VocabularyEntry, on selection: DeviceSelection = .all) {
        let now = scheduler.currentTime()
        entry.preparedUntil.store((now + configuration.prepareLifetime).nanoseconds, ordering: .relaxed)
        for target in preparationTargets(of: entry, on: selection) { prepare(entry, on: target) }
        expireUnusedPreparations()
    }

    /// The devices of `selection` that prepare `entry`, each with its part in it.
    func preparationTargets(of entry: VocabularyEntry, on selection: DeviceSelection) -> [PreparationTarget] {
        guard let index = vocabulary.firstIndex(where: { $0 === entry }) else { return [] }
        return channelDevices.withLock { devices in
            devices.compactMap { device in
                selection.contains(device.deviceID.rawValue) ? preparationTarget(device, item: index) : nil
            }
        }
    }

    /// Whether an item's preparation still holds.
    func isPrepared(_ entry: VocabularyEntry) -> Bool {
        scheduler.currentTime().nanoseconds < entry.preparedUntil.load(ordering: .relaxed)
    }

    /// Prepares `entry` on one device outside the engine's lock: the level of the intensity it was
    /// last played at, then, for an impact and when `ahead`, the levels of its other intensities
    /// ahead while the device has free room, nearest first. A device that turns out to be gone is
    /// reported lost, and any other refusal leaves the item to play unprepared.
    func prepare(_ entry: VocabularyEntry, on target: PreparationTarget, ahead: Bool = true) {
        let gain = self.gain * target.deviceGain
        let asked = entry.lastIntensityStep.load(ordering: .relaxed)
        var levels = [Self.level(step: asked, gain: gain, hardwareGain: target.hardwareGain)]
        if ahead, case .impact = entry.feedback {
            let others = (1...Self.intensitySteps).sorted { (abs($0 - asked), -$0) < (abs($1 - asked), -$1) }
            for step in others {
                let level = Self.level(step: step, gain: gain, hardwareGain: target.hardwareGain)
                if !levels.contains(level) { levels.append(level) }
            }
        }
        do throws(DeviceError) {
            try target.output.prepare(target.program.scaled(intensity: levels[0], profile: target.profile))
            for level in levels.dropFirst() {
                guard try target.output.prepareAhead(target.program.scaled(intensity: level, profile: target.profile)) else { break }
            }
        } catch {
            if case .deviceLost = error { reportLoss(of: target.channel, error: error) }
        }
    }

    /// Prepares programs as they are (a pattern player's) on devices outside the engine's lock; a
    /// device that turns out to be gone is reported lost, and any other refusal leaves the program
    /// to play unprepared.
    func prepare(_ targets: [(output: any PreparableActuator, program: Program, channel: ChannelID)]) {
        for target in targets {
            do {
                try target.output.prepare(target.program)
            } catch {
                if case .deviceLost = error { reportLoss(of: target.channel, error: error) }
            }
        }
        // What is prepared now expires unused after `prepareLifetime`, and not before.
        if !targets.isEmpty { requestHousekeeping(at: preparationExpiry(lastUsed: now)) }
    }

    /// Prepares every item whose preparation still holds on the devices `includes` picks: a newly
    /// added device, or after a gain change the devices that scale by the gain in software.
    func prepareCurrentPreparations(on includes: (EngineDevice) -> Bool) {
        let now = scheduler.currentTime().nanoseconds
        let targets = channelDevices.withLock { devices -> [(VocabularyEntry, PreparationTarget)] in
            devices.filter(includes).flatMap { device in
                vocabulary.indices.compactMap { index in
                    guard vocabulary[index].preparedUntil.load(ordering: .relaxed) > now,
                          let target = preparationTarget(device, item: index) else { return nil }
                    return (vocabulary[index], target)
                }
            }
        }
        for (entry, target) in targets { prepare(entry, on: target) }
    }

    /// On a newly added device: prepares every item whose preparation still holds.
    func prepareCurrentPreparations(onChannel channel: ChannelID) {
        prepareCurrentPreparations { $0.channel == channel }
    }

    /// The part of `device` in preparing vocabulary item `index`, with its own gain.
    private func preparationTarget(_ device: EngineDevice, item index: Int) -> PreparationTarget? {
        PreparationTarget(device, item: index, deviceGain: roster.gain(device.channel.rawValue))
    }

    /// Releases device resources of preparations unused for `prepareLifetime`.
    func expireUnusedPreparations() {
        let cutoff = scheduler.currentTime() - configuration.prepareLifetime
        let outputs = channelDevices.withLock { $0.compactMap(\.preparable) }
        for output in outputs { output.expirePreparations(unusedSince: cutoff) }
    }
}

extension HapticEngine {
    /// Prepares a vocabulary item for the next few seconds, like a generator's `prepare()`: its
    /// plays are then one `write()` on evdev devices at the intensity it was last played at (1
    /// before any play), and an impact's at any other while the device has free slots for them
    /// (intensities in steps of `intensityStep`). Control side: may block on device uploads.
    public func prepare(_ feedback: Feedback) {
        if let entry = vocabularyEntry(for: feedback) { prepare(entry) }
    }

    /// Prepares a vocabulary item on the selected devices only; see `prepare(_:)`.
    public func prepare(_ feedback: Feedback, on devices: DeviceSelection) {
        if let entry = vocabularyEntry(for: feedback) { prepare(entry, on: devices) }
    }
}
