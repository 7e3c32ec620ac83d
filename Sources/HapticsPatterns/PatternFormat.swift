/// The pattern file formats the engine reads, told apart by content, never by file name.
public enum PatternFormat: String, Sendable, Hashable, CaseIterable {
    /// Apple Haptic and Audio Pattern: a JSON object with `Version` and a `Pattern` array.
    case ahap
    /// A Meta Haptics Studio / Lofelt clip: a JSON object with `version` and `signals`.
    case hapticClip = "haptic"
    /// A feedbackd theme: a JSON object with `profiles` of feedbacks per event name.
    case feedbackdTheme = "feedbackd-theme"

    /// How messages name the format (`AHAP`, `.haptic clip`, `feedbackd theme`).
    public var displayName: String {
        switch self {
        case .ahap: return "AHAP"
        case .hapticClip: return ".haptic clip"
        case .feedbackdTheme: return "feedbackd theme"
        }
    }

    /// The format a file of this name is written in, from its extension (`.ahap`, `.haptic`):
    /// what an output path asks for. `nil` for any other name.
    public init?(outputPath path: String) {
        let lowercased = path.lowercased()
        if lowercased.hasSuffix(".ahap") {
            self = .ahap
        } else if lowercased.hasSuffix(".haptic") {
            self = .hapticClip
        } else {
            return nil
        }
    }

    /// The format `bytes` are written in, judged by the top-level keys of the JSON object they
    /// hold: `signals` (or a lowercase `version` without AHAP's `Pattern`) is a clip, `profiles` or
    /// `parent-name` a theme, anything else — unreadable JSON included — is read as AHAP, whose
    /// decoder then says what is wrong. A theme may use what feedbackd's JSON reader accepts
    /// beyond JSON (hexadecimal integers, comments).
    public static func recognize(_ bytes: [UInt8]) -> PatternFormat {
        var limits = PatternLimits.default
        limits.maximumFileSize = .max
        if let (root, _) = try? PatternJSON.parse(bytes, fileName: "", limits: limits) { return recognize(root) }
        var parser = JSONParser(bytes: bytes, fileName: "", maximumDepth: limits.maximumNestingDepth,
                                leniencies: FeedbackdThemeDecoding.leniencies)
        guard let root = try? parser.parseDocument(), recognize(root) == .feedbackdTheme else { return .ahap }
        return .feedbackdTheme
    }

    /// The format of a parsed document, by the rules of `recognize(_:)`.
    static func recognize(_ root: JSONValue) -> PatternFormat {
        guard case .object(let members) = root.content else { return .ahap }
        let keys = Set(members.map(\.key))
        if keys.contains("Pattern") || keys.contains("Version") { return .ahap }
        if keys.contains("signals") || keys.contains("version") { return .hapticClip }
        // A theme of a name and a parent only (pure inheritance) has no profiles.
        if keys.contains("profiles") || keys.contains("parent-name") { return .feedbackdTheme }
        return .ahap
    }
}
