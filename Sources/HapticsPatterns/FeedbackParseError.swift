import HapticsSystem

/// Why a feedback name such as `"impact.light:0.5"` could not be parsed.
public enum FeedbackParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The name is not in the vocabulary; `validNames` lists every name that is.
    case unknownName(String, validNames: [String])
    /// An intensity was given after `:` but is not a number.
    case invalidIntensity(String, in: String)
    /// The intensity is a number outside 0…1.
    case intensityOutOfRange(Double, in: String)
    /// An intensity was given for a feedback that has none (only impacts take one).
    case unexpectedIntensity(in: String)

    /// A one-line explanation that says what would have been accepted; the name as given is
    /// escaped for the terminal (`PrintableText`).
    public var description: String {
        switch self {
        case .unknownName(let name, let validNames):
            return "unknown feedback \"\(PrintableText.escaped(name))\"; valid names: \(validNames.joined(separator: ", "))"
        case .invalidIntensity(let text, let input):
            return "intensity \"\(PrintableText.escaped(text))\" in \"\(PrintableText.escaped(input))\" is not a number; expected a number in 0…1"
        case .intensityOutOfRange(let value, let input):
            return "intensity \(NumberText.shortest(value)) in \"\(PrintableText.escaped(input))\" is outside 0…1"
        case .unexpectedIntensity(let input):
            return "\"\(PrintableText.escaped(input))\" has an intensity, but only impact feedback takes one"
        }
    }
}
