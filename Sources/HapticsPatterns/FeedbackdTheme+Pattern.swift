extension FeedbackdFeedback {
    /// The feedback as a pattern, felt from time 0; `nil` for `Sound`, `Led` and `Dummy`.
    ///
    /// - `VibraRumble`: one `HapticContinuous` event per rumble, of its length, at the magnitude.
    /// - `VibraPeriodic`: `HapticContinuous` events of `duration` in all at the magnitude; a fade-in
    ///   rises linearly from `fadeInLevel` over `fade-in-time` (see `fadingIn(_:)`).
    /// - `VibraPattern`: one `HapticContinuous` event per step with a magnitude above 0, one after
    ///   the other; a step of magnitude 0 is a pause.
    ///
    /// Sharpness is left at the default (0.5): feedbackd drives one motor at one frequency.
    public var hapticPattern: Pattern? {
        func vibration(at milliseconds: Int, for length: Int, magnitude: Double) -> PatternEvent {
            PatternEvent(kind: .hapticContinuous, time: Double(milliseconds) / 1000, duration: Double(length) / 1000,
                         parameters: EventParameters(hapticIntensity: magnitude))
        }
        var pattern = Pattern()
        switch kind {
        case .rumble(let rumble):
            guard rumble.magnitude > 0 else { break }
            pattern.events = rumble.rumbles.map {
                vibration(at: $0.startMilliseconds, for: $0.lengthMilliseconds, magnitude: rumble.magnitude)
            }
        case .periodic(let periodic):
            guard periodic.magnitude > 0, periodic.durationMilliseconds > 0 else { break }
            pattern.events = Self.fadingIn(periodic)
        case .pattern(let steps):
            var start = 0
            for step in steps.steps {
                if step.magnitude > 0, step.durationMilliseconds > 0 {
                    pattern.events.append(vibration(at: start, for: step.durationMilliseconds, magnitude: step.magnitude))
                }
                start += step.durationMilliseconds
            }
        case .sound, .led, .dummy:
            return nil
        }
        return pattern
    }

    /// A periodic vibration as events: during the fade-in, each second (or what is left of it) is a
    /// flat event at the level the fade has reached plus one that rises from 0 by the rest of that
    /// second's climb (its `AttackTime` is its length), so that the two add up to a straight ramp
    /// from `fadeInLevel` to the magnitude; then one event holds the magnitude. Events of the same
    /// feedback only, so a fade never touches the other feedbacks an event plays with (a
    /// pattern-wide intensity curve would), and every attack stays within AHAP's 0…1 s.
    static func fadingIn(_ periodic: FeedbackdPeriodic) -> [PatternEvent] {
        let total = periodic.durationMilliseconds
        let fade = min(periodic.fadeInMilliseconds, total)
        let from = min(periodic.fadeInLevel, periodic.magnitude)
        let climb = periodic.magnitude - from
        func event(_ start: Int, _ length: Int, _ level: Double, attack: Int? = nil) -> PatternEvent {
            PatternEvent(kind: .hapticContinuous, time: Double(start) / 1000, duration: Double(length) / 1000,
                         parameters: EventParameters(hapticIntensity: level, attackTime: attack.map { Double($0) / 1000 }))
        }
        var events: [PatternEvent] = []
        if fade > 0, climb > 0 {
            for start in stride(from: 0, to: fade, by: 1000) {
                let length = min(1000, fade - start)
                let reached = from + climb * Double(start) / Double(fade)
                if reached > 0 { events.append(event(start, length, reached)) }
                events.append(event(start, length, climb * Double(length) / Double(fade), attack: length))
            }
        }
        let held = fade > 0 && climb > 0 ? fade : 0
        if held < total { events.append(event(held, total - held, periodic.magnitude)) }
        return events
    }
}

extension FeedbackdTheme {
    /// What playing an event at a level amounts to: the felt part as one pattern, the sounds, and
    /// the feedbacks that are neither (`Led`, `Dummy`).
    public struct EventPlan: Sendable, Hashable {
        /// The event.
        public var event: String
        /// The level it is played at.
        public var level: FeedbackdLevel
        /// The haptic feedbacks of every played section, together from time 0 (feedbackd starts
        /// them together; overlapping vibrations add up, as the renderer mixes them).
        public var pattern: Pattern
        /// The haptic feedbacks the pattern was made from.
        public var haptic: [FeedbackdFeedback]
        /// The `Sound` feedbacks, to be played by name from a sound folder.
        public var sounds: [FeedbackdFeedback]
        /// The feedbacks that are neither felt nor heard (`Led`, `Dummy`), reported, not played.
        public var notHaptic: [FeedbackdFeedback]
    }

    /// What `event` does at `level` (see `feedbacks(for:level:)` for the lookup).
    public func plan(for event: String, level: FeedbackdLevel) -> EventPlan {
        let found = feedbacks(for: event, level: level)
        var pattern = Pattern(metadata: [
            MetadataEntry(key: "Description", value: "feedbackd event \(event) of theme \(name) at level \(level.rawValue)"),
        ])
        var haptic: [FeedbackdFeedback] = []
        for feedback in found {
            guard let part = feedback.hapticPattern else { continue }
            haptic.append(feedback)
            pattern.events += part.events
            pattern.curves += part.curves
        }
        return EventPlan(
            event: event, level: level, pattern: pattern, haptic: haptic,
            sounds: found.filter { if case .sound = $0.kind { return true } else { return false } },
            notHaptic: found.filter { feedback in
                switch feedback.kind {
                case .led, .dummy: return true
                default: return false
                }
            })
    }

    /// The felt part of `event` at `level` as a pattern (to play it, or to write it as AHAP).
    ///
    /// Throws a `PatternError` naming the theme's file when the event has no feedback at that
    /// level, or none that is felt (the message lists what there is).
    public func pattern(for event: String, level: FeedbackdLevel = .full) throws(PatternError) -> Pattern {
        let plan = plan(for: event, level: level)
        guard plan.haptic.isEmpty else { return plan.pattern }
        let others = plan.sounds + plan.notHaptic
        let what = others.isEmpty
            ? "no feedback"
            : "no haptic feedback (only " + others.map { "\($0.typeName) in \($0.section.rawValue)" }.joined(separator: ", ") + ")"
        throw PatternError(file: chain[0].file, line: 0, column: 0, path: "",
                           message: "the event \(JSONString.quoted(event)) has \(what) at level \(level.rawValue) in theme \(JSONString.quoted(name))")
    }
}
