/// Text that came from outside the program — a pattern file's keys and values, a file name, a WAV
/// chunk id, a device's name from the kernel — made safe to print on a terminal.
///
/// A terminal obeys the control characters it is sent: `ESC ] 0 ; … BEL` retitles the window,
/// `CSI 2 J` (C1 `U+009B` or `ESC [`) clears it, a newline forges a line of output, and the bidi
/// overrides reorder what follows them, so a name can read differently from what it is. Every
/// message that quotes outside text escapes it here, once, the same way:
///
/// - C0 controls (U+0000…U+001F), DEL (U+007F) and C1 controls (U+0080…U+009F);
/// - the bidi embeddings, overrides and isolates (U+202A…U+202E, U+2066…U+2069);
///
/// are written as `\t`, `\n`, `\r`, or `\u{1B}` (Swift's spelling: uppercase hexadecimal, at least
/// two digits). Everything else — printable ASCII, the backslash, accented letters, CJK, emoji — is
/// kept as it is: the result is for people to read, not to be parsed back. JSON output escapes
/// the same characters in JSON's own spelling (`JSONString` uses ``needsEscaping(_:)``).
package enum PrintableText {
    /// `text` with every character of ``needsEscaping(_:)`` escaped: `"a\u{1B}]0;x\u{07}"` becomes
    /// `a\u{1B}]0;x\u{07}`, ten characters a terminal prints instead of obeying.
    package static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscaping) else { return text }
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count + 8)
        for scalar in text.unicodeScalars {
            guard needsEscaping(scalar) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\t": result += "\\t"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            default:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\u{" + (hex.count < 2 ? "0" : "") + hex + "}"
            }
        }
        return result
    }

    /// `bytes` read as UTF-8 (a path the kernel gave, say), invalid sequences shown as U+FFFD,
    /// then escaped as ``escaped(_:)`` escapes a string.
    package static func escaped(bytes: some Collection<UInt8>) -> String {
        escaped(String(decoding: bytes, as: UTF8.self))
    }

    /// Whether a terminal would act on `scalar` instead of showing it: a C0 or C1 control, DEL, or a
    /// bidi embedding, override or isolate.
    package static func needsEscaping(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
