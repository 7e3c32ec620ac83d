import HapticsPatterns

/// A haptic event placed on the control grid, with the tick it must leave silent so that it stays
/// separate from the next pulse of the pattern.
///
/// Events whose extents in the pattern overlap or touch (the next onset at or before the latest end
/// so far) form one *pulse* and combine. Between two pulses the pattern has a gap, however small,
/// and a person counts them as two; so the last tick before the next pulse's onset tick must be
/// silent, and every event of the earlier pulse must end before it. Onsets never move: they are
/// what is synchronized with sound.
struct PlacedEvent: Sendable {
    /// The event as written.
    var event: PatternEvent
    /// The tick its onset snaps to.
    var onsetTick: Int64
    /// The tick its written end snaps to (the onset tick for a transient).
    var endTick: Int64
    /// The tick that must stay silent because the next pulse starts on the tick after it, or `nil`
    /// when no pulse follows.
    var silentTick: Int64?

    /// The ticks the event may sound in when it would naturally sound for `ticks` ticks: no further
    /// than the silent tick, and never less than one tick.
    ///
    /// When the next onset lands on the same tick or the next one, there is no room for a tick of
    /// sound and a tick of silence; the event keeps its one tick and the two pulses touch.
    func soundingTicks(_ ticks: Int64) -> Int64 {
        guard let silentTick else { return max(1, ticks) }
        return max(1, min(ticks, silentTick - onsetTick))
    }

    /// Places the renderable haptic events of a list sorted by onset, in that order.
    ///
    /// Transients have no extent in the pattern (they start and end at their time); a continuous
    /// event without a positive finite duration renders nothing and is left out. Extents are
    /// compared in whole nanoseconds, so back-to-back events written in decimal seconds
    /// (0.7 + 0.1 and 0.8) touch rather than leave a rounding-error gap.
    static func place(_ events: [PatternEvent], interval: Int64) -> [PlacedEvent] {
        var placed: [PlacedEvent] = []
        // The index of the first event of each pulse, in `placed`.
        var pulseStarts: [Int] = []
        var pulseEnd = Int64.min
        for event in events {
            guard let onset = nanoseconds(seconds: event.time) else { continue }
            let end: Int64
            switch event.kind {
            case .hapticTransient:
                end = onset
            case .hapticContinuous:
                let duration = event.resolvedDuration
                guard duration > 0, duration.isFinite,
                    let written = nanoseconds(seconds: event.time + duration)
                else { continue }
                end = written
            case .audioCustom, .audioContinuous:
                continue
            }
            if placed.isEmpty || onset > pulseEnd {
                pulseStarts.append(placed.count)
            }
            pulseEnd = max(pulseEnd, end)
            placed.append(PlacedEvent(
                event: event, onsetTick: tick(nanoseconds: onset, interval: interval),
                endTick: tick(nanoseconds: end, interval: interval), silentTick: nil))
        }
        for (pulse, start) in pulseStarts.enumerated() where pulse + 1 < pulseStarts.count {
            let next = pulseStarts[pulse + 1]
            let silentTick = placed[next].onsetTick - 1
            for index in start..<next {
                placed[index].silentTick = silentTick
            }
        }
        return placed
    }

    /// A time in seconds as whole nanoseconds, or `nil` when negative, not finite or later than
    /// `Renderer.maximumPatternDuration`.
    static func nanoseconds(seconds: Double) -> Int64? {
        let nanoseconds = (seconds * 1e9).rounded()
        guard nanoseconds.isFinite, nanoseconds >= 0, nanoseconds <= Double(Renderer.maximumPatternNanoseconds) else {
            return nil
        }
        return Int64(nanoseconds)
    }

    /// The tick nearest to a time in nanoseconds (halves round up).
    static func tick(nanoseconds: Int64, interval: Int64) -> Int64 {
        (nanoseconds + interval / 2) / interval
    }
}
