import HapticsPatterns

extension FuzzTarget {
    /// The feedbackd theme decoder of `HapticsPatterns`, on bytes as a theme file holds them (its
    /// parent, when it names one, is a fixed small theme, or the input itself for the name `self`).
    ///
    /// Beyond not crashing, what decodes must keep feedbackd's rules: a level plays no more
    /// sections than it has and every feedback of a quieter level too; every event's felt part is
    /// a pattern of finite, non-negative times within the decoder's limits, which AHAP carries
    /// unchanged (encoded and decoded again, it is the same pattern).
    public static let theme = FuzzTarget(
        name: "theme",
        summary: "feedbackd theme decoder (HapticsPatterns): bytes → theme → each event's pattern at each level; pattern → AHAP → pattern is the identity",
        seedSources: [.files(folder: "Tests/FuzzSeeds/theme", suffix: "")],
        body: { input, _ in decodeTheme(input) })

    /// The parent every fuzzed theme may name: one event in each section.
    static let parentTheme = Array("""
        { "name": "default", "profiles": [
          { "name": "full", "feedbacks": [{ "event-name": "button-pressed", "type": "Sound", "effect": "button-pressed" }] },
          { "name": "quiet", "feedbacks": [{ "event-name": "button-pressed", "type": "VibraRumble", "duration": 12 }] },
          { "name": "silent", "feedbacks": [{ "event-name": "battery-caution", "type": "Led", "color": "red", "frequency": 5000 }] }
        ] }
        """.utf8)

    /// Decodes `input`; when it decodes, checks the level rule and each event's pattern.
    static func decodeTheme(_ input: [UInt8]) {
        let theme: FeedbackdTheme
        do {
            theme = try FeedbackdTheme(decoding: input, file: "fuzz.json") { (name: String) throws(PatternError) in
                switch name {
                case "default": return (parentTheme, "default.json")
                case "self": return (input, "self.json")
                default: return nil
                }
            }
        } catch {
            _ = error.description   // errors are printed: their text must be sound too
            return
        }
        for warning in theme.warnings { _ = warning.description }
        let limits = PatternLimits.default
        for event in theme.events {
            for level in FeedbackdLevel.allCases {
                let feedbacks = theme.feedbacks(for: event, level: level)
                precondition(feedbacks.count <= level.playedSections.count, "more feedbacks than sections at \(level)")
                if level != .silent, let quieter = FeedbackdLevel.allCases.last(where: { $0 < level }) {
                    let lower = theme.feedbacks(for: event, level: quieter)
                    precondition(lower.allSatisfy(feedbacks.contains), "\(level) does not play what \(quieter) plays")
                }
                for feedback in feedbacks { _ = feedback.summary }
                let plan = theme.plan(for: event, level: level)
                precondition(plan.haptic.count + plan.sounds.count + plan.notHaptic.count == feedbacks.count,
                             "the plan lost or invented a feedback")
                let pattern = plan.pattern
                for part in pattern.events {
                    precondition(part.time.isFinite && part.time >= 0 && part.time + part.resolvedDuration <= limits.maximumDuration,
                                 "an event at \(part.time) s for \(part.resolvedDuration) s")
                    precondition((0...1).contains(part.parameters.resolvedIntensity), "intensity \(part.parameters.resolvedIntensity)")
                }
                guard !plan.haptic.isEmpty else { continue }
                let text = AHAPEncoder().encode(pattern)
                do {
                    let again = try AHAPDecoder().decode(text, fileName: "fuzz.ahap")
                    precondition(again.pattern == pattern, "the event's pattern changed through AHAP; the encoder wrote:\n\(text)")
                } catch {
                    preconditionFailure("the event's pattern is an AHAP file the decoder refuses (\(error)):\n\(text)")
                }
            }
        }
    }
}
