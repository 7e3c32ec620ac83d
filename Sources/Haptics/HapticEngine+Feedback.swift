import HapticsPatterns
import HapticsScheduler

extension HapticEngine {
    /// Plays a vocabulary item: as soon as the devices allow, or with its felt onset at `feltAt`.
    ///
    /// The item's program is already loaded; this costs two lock-free submissions per output
    /// (intensity, start) and never blocks.
    @discardableResult
    public func play(_ feedback: Feedback, feltAt: MonotonicInstant? = nil) -> PlaybackOutcome {
        guard let entry = vocabularyEntry(for: feedback) else { return .notPlayed(.unsupported) }
        var intensity = 1.0
        if case let .impact(_, requested) = feedback { intensity = min(max(requested, 0), 1) }
        return play(entry, intensity: intensity, feltAt: feltAt)
    }

    /// The loaded entry of a vocabulary item (impact intensity ignored).
    func vocabularyEntry(for feedback: Feedback) -> VocabularyEntry? {
        for entry in vocabulary where entry.feedback.sameItem(as: feedback) { return entry }
        return nil
    }

    func play(_ entry: VocabularyEntry, intensity: Double, feltAt: MonotonicInstant?) -> PlaybackOutcome {
        if let reason = silenceReason() { return .notPlayed(reason) }
        let now = scheduler.currentTime()
        let earliest = now.advanced(by: entry.maximumLeadTime)
        // Every output starts early by its own lead time, so devices with different rise times are
        // felt together; a felt time that can no longer be met moves to the earliest possible one.
        let felt = max(feltAt ?? earliest, earliest)
        let level = intensity * gain
        var scheduled = false
        for output in entry.players where output.playable {
            let start = felt.advanced(by: -output.leadTime)
            guard scheduler.setParameter(output.player, .hapticIntensityControl, value: level, at: start),
                  scheduler.start(output.player, at: start)
            else { return .notPlayed(.queueFull) }
            scheduled = true
        }
        guard scheduled else { return .notPlayed(.unsupported) }
        entry.preparedUntil.store(now.nanoseconds + configuration.prepareLifetime, ordering: .relaxed)
        return .scheduled(feltAt: felt)
    }

    /// Marks an item prepared for the next few seconds (`Configuration.prepareLifetime`).
    func prepare(_ entry: VocabularyEntry) {
        entry.preparedUntil.store(scheduler.currentTime().nanoseconds + configuration.prepareLifetime, ordering: .relaxed)
    }

    /// Whether an item's preparation still holds.
    func isPrepared(_ entry: VocabularyEntry) -> Bool {
        scheduler.currentTime().nanoseconds < entry.preparedUntil.load(ordering: .relaxed)
    }
}

extension Feedback {
    /// Whether two feedbacks are the same vocabulary item, whatever the impact intensity.
    func sameItem(as other: Feedback) -> Bool {
        switch (self, other) {
        case let (.notification(a), .notification(b)): return a == b
        case let (.impact(a, _), .impact(b, _)): return a == b
        case (.selection, .selection): return true
        default: return false
        }
    }
}
