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
        let earliest = now.advanced(by: entry.maximumLeadTime(roster))
        // Every output starts early by its own lead time, so devices with different rise times are
        // felt together; a felt time that can no longer be met moves to the earliest possible one.
        let felt = max(feltAt ?? earliest, earliest)
        let gain = self.gain
        var scheduled = false
        // Lock-free walk over the channels published so far; a channel lost meanwhile is skipped,
        // and a submission that races its retirement is ignored by the scheduler.
        for channel in 0..<roster.upperBound where roster.isLive(channel) {
            let slot = entry.slot(channel)
            guard slot.playable else { continue }
            let start = felt.advanced(by: -slot.leadTime)
            // A device with a hardware gain applies the gain itself: its levels stay as prepared.
            let level = slot.hardwareGain ? intensity : intensity * gain
            guard scheduler.setParameter(slot.player, .hapticIntensityControl, value: level, at: start),
                  scheduler.start(slot.player, at: start)
            else { return .notPlayed(.queueFull) }
            scheduled = true
        }
        guard scheduled else { return .notPlayed(.unsupported) }
        entry.preparedUntil.store(now.nanoseconds + configuration.prepareLifetime, ordering: .relaxed)
        return .scheduled(feltAt: felt)
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
