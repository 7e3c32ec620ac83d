import HapticsSystem

/// JSON string syntax, the one way the engine writes it: AHAP files, diagnostics that quote a key
/// or a value, and the command-line tool's `--json` lines.
public enum JSONString {
    /// `text` as a JSON string literal, quotes included.
    ///
    /// `"` and `\` are escaped; every control character (U+0000…U+001F) is escaped too, with the
    /// short forms `\b`, `\t`, `\n`, `\f`, `\r` where JSON has one and `\u00XX` (lowercase hex)
    /// otherwise. So are the other characters a terminal would act on instead of showing (DEL, the
    /// C1 controls, the bidi overrides: `PrintableText.needsEscaping`), as `\u007f`, `\u009b`,
    /// `\u202e`: JSON lines are printed on terminals too, and a JSON reader decodes them back to
    /// the same text. Everything else, non-ASCII included, is written as it is (UTF-8 is valid JSON).
    public static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\u{08}": result += "\\b"
            case "\t": result += "\\t"
            case "\n": result += "\\n"
            case "\u{0C}": result += "\\f"
            case "\r": result += "\\r"
            case let control where PrintableText.needsEscaping(control):
                let hex = String(control.value, radix: 16, uppercase: false)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
