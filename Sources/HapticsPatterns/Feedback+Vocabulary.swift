extension Feedback {
    /// The feedback's name: `notification.success`, `impact.heavy`, `impact.light:0.5`, `selection`.
    ///
    /// The intensity is written only when it is not 1, so `Feedback(parsing: f.name) == f`.
    public var name: String {
        switch self {
        case .notification(let type): return "notification.\(type.rawValue)"
        case .impact(let style, let intensity):
            return intensity == 1 ? "impact.\(style.rawValue)" : "impact.\(style.rawValue):\(intensity.description)"
        case .selection: return "selection"
        }
    }

    /// Parses a feedback name as `name` writes it; an impact may carry `:intensity` (0…1).
    public init(parsing text: String) throws(FeedbackParseError) {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let base = String(parts[0])
        guard let item = Feedback.vocabulary.first(where: { $0.name == base }) else {
            throw .unknownName(base, validNames: Feedback.vocabulary.map(\.name))
        }
        guard parts.count == 2 else {
            self = item
            return
        }
        guard case .impact(let style, _) = item else { throw .unexpectedIntensity(in: text) }
        let intensityText = String(parts[1])
        // Only plain decimals: `Double("nan")`, `"inf"` and hexadecimal floats are not intensities.
        guard intensityText.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-" || $0 == "+" || $0 == "e" || $0 == "E") }),
            let intensity = Double(intensityText)
        else {
            throw .invalidIntensity(intensityText, in: text)
        }
        guard (0...1).contains(intensity) else { throw .intensityOutOfRange(intensity, in: text) }
        self = .impact(style, intensity: intensity)
    }

    /// Every vocabulary item at intensity 1: the three notifications, the five impacts, selection.
    public static var vocabulary: [Feedback] {
        NotificationType.allCases.map { .notification($0) }
            + ImpactStyle.allCases.map { .impact($0, intensity: 1) }
            + [.selection]
    }

    /// The name of the feedback's canonical AHAP file in `Patterns/` (`impact-light.ahap`).
    public var canonicalFileName: String {
        switch self {
        case .notification(let type): return "notification-\(type.rawValue).ahap"
        case .impact(let style, _): return "impact-\(style.rawValue).ahap"
        case .selection: return "selection.ahap"
        }
    }

    /// The canonical pattern, from the embedded AHAP file. An impact's intensity (clamped to 0…1)
    /// multiplies the `HapticIntensity` of every haptic event.
    public var canonicalPattern: Pattern {
        guard var pattern = CanonicalPatterns.patterns[canonicalFileName] else {
            preconditionFailure("no canonical pattern embedded for \(name)")
        }
        if case .impact(_, let intensity) = self, intensity != 1 {
            let scale = min(max(intensity, 0), 1)
            for index in pattern.events.indices where pattern.events[index].kind.isHaptic {
                pattern.events[index].parameters.hapticIntensity =
                    pattern.events[index].parameters.resolvedIntensity * scale
            }
        }
        return pattern
    }
}
