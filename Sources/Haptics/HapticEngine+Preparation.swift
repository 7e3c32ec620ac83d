import HapticsDevices
import HapticsPatterns
import HapticsRendering
import HapticsScheduler
import HapticsSystem

extension HapticEngine {
    /// Prepares a vocabulary item: every preparable device gets its program ready (evdev: effects
    /// uploaded now, so the play is one `write()`), and the item is marked prepared for
    /// `Configuration.prepareLifetime`. Control side: may block on uploads.
    func prepare(_ entry: VocabularyEntry, on selection: DeviceSelection = .all) {
        let now = scheduler.currentTime()
        entry.preparedUntil.store((now + configuration.prepareLifetime).nanoseconds, ordering: .relaxed)
        guard let index = vocabulary.firstIndex(where: { $0 === entry }) else { return }
        let targets = channelDevices.withLock { devices in
            devices.compactMap { device in
                selection.contains(device.deviceID.rawValue) ? device.preparable.map { ($0, device.programs[index], device.channel) } : nil
            }
        }
        prepare(targets)
        expireUnusedPreparations()
    }

    /// Whether an item's preparation still holds.
    func isPrepared(_ entry: VocabularyEntry) -> Bool {
        scheduler.currentTime().nanoseconds < entry.preparedUntil.load(ordering: .relaxed)
    }

    /// Prepares programs on devices outside the engine's lock; a device that turns out to be gone
    /// is reported lost, and any other refusal leaves the program to play unprepared.
    func prepare(_ targets: [(output: any PreparableActuator, program: Program, channel: ChannelID)]) {
        for target in targets {
            do {
                try target.output.prepare(target.program)
            } catch {
                if case .deviceLost = error { reportLoss(of: target.channel, error: error) }
            }
        }
    }

    /// On a newly added device: prepares every item whose preparation still holds.
    func prepareCurrentPreparations(onChannel channel: ChannelID) {
        let now = scheduler.currentTime().nanoseconds
        let targets = channelDevices.withLock { devices -> [(output: any PreparableActuator, program: Program, channel: ChannelID)] in
            guard let device = devices.first(where: { $0.channel == channel }), let output = device.preparable else { return [] }
            return vocabulary.indices.compactMap { index in
                vocabulary[index].preparedUntil.load(ordering: .relaxed) > now ? (output, device.programs[index], channel) : nil
            }
        }
        prepare(targets)
    }

    /// Releases device resources of preparations unused for `prepareLifetime`.
    func expireUnusedPreparations() {
        let cutoff = scheduler.currentTime() - configuration.prepareLifetime
        let outputs = channelDevices.withLock { $0.compactMap(\.preparable) }
        for output in outputs { output.expirePreparations(unusedSince: cutoff) }
    }
}

extension HapticEngine {
    /// Prepares a vocabulary item for the next few seconds, like a generator's `prepare()`.
    /// Control side: may block on device uploads.
    public func prepare(_ feedback: Feedback) {
        if let entry = vocabularyEntry(for: feedback) { prepare(entry) }
    }

    /// Prepares a vocabulary item on the selected devices only; see `prepare(_:)`.
    public func prepare(_ feedback: Feedback, on devices: DeviceSelection) {
        if let entry = vocabularyEntry(for: feedback) { prepare(entry, on: devices) }
    }
}
