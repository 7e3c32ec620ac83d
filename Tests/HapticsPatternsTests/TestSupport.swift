import Testing
@testable import HapticsPatterns

/// Decodes `text` as `x.ahap` and returns the error's description, or `nil` when it decoded.
func decodingError(_ text: String, limits: PatternLimits = .default) -> String? {
    do {
        _ = try AHAPDecoder(limits: limits).decode(text, fileName: "x.ahap")
        return nil
    } catch {
        return error.description
    }
}

/// Decodes `text` as `x.ahap`, returning the pattern and the warnings' descriptions.
func decodeWithWarnings(_ text: String) throws -> (pattern: Pattern, warnings: [String]) {
    let decoded = try AHAPDecoder().decode(text, fileName: "x.ahap")
    return (decoded.pattern, decoded.warnings.map(\.description))
}

/// A file whose only entry is `{ "Event": <body> }` on line 3; `body` starts at column 16.
func fileWithEvent(_ body: String) -> String {
    "{\n  \"Pattern\": [\n    { \"Event\": \(body) }\n  ]\n}\n"
}

/// A file whose only entry is `<body>` on line 3, starting at column 5.
func fileWithEntry(_ body: String) -> String {
    "{\n  \"Pattern\": [\n    \(body)\n  ]\n}\n"
}
