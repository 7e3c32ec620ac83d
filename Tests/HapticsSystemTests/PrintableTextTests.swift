import HapticsSystem
import Testing

/// Outside text is shown, never obeyed: every control a terminal acts on is escaped, everything
/// printable is kept.
@Suite struct PrintableTextTests {
    @Test func aTitleSequenceAndAClearScreenArePrintedAsText() {
        #expect(PrintableText.escaped("\u{1B}]0;pwned\u{07}") == #"\u{1B}]0;pwned\u{07}"#)
        #expect(PrintableText.escaped("\u{9B}2J") == #"\u{9B}2J"#)
        #expect(PrintableText.escaped("\u{1B}[2J") == #"\u{1B}[2J"#)
    }

    @Test func everyC0ControlDELAndC1ControlIsEscaped() {
        let controls = (0x00...0x1F).map { $0 } + [0x7F] + (0x80...0x9F).map { $0 }
        for value in controls {
            let scalar = Unicode.Scalar(UInt32(value))!
            #expect(PrintableText.needsEscaping(scalar))
            let escaped = PrintableText.escaped(String(Character(scalar)))
            #expect(escaped.unicodeScalars.allSatisfy { !PrintableText.needsEscaping($0) })
            #expect(escaped.hasPrefix("\\"))
        }
        #expect(PrintableText.escaped("a\tb\nc\rd") == #"a\tb\nc\rd"#)
        #expect(PrintableText.escaped("\u{00}\u{7F}\u{80}\u{85}\u{9F}") == #"\u{00}\u{7F}\u{80}\u{85}\u{9F}"#)
    }

    @Test func bidiOverridesAndIsolatesAreEscaped() {
        #expect(PrintableText.escaped("abc\u{202E}fdp.exe") == #"abc\u{202E}fdp.exe"#)
        for value in [0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069] {
            #expect(PrintableText.needsEscaping(Unicode.Scalar(UInt32(value))!))
        }
        #expect(!PrintableText.needsEscaping("\u{2029}"))
        #expect(!PrintableText.needsEscaping("\u{206A}"))
    }

    @Test func printableTextIsKeptAsItIs() {
        let printable = #"sounds/hit 1.wav \ "quoted" café café 触覚 ✓ 🎮 ¡ ÿ"#
        #expect(PrintableText.escaped(printable) == printable)
        #expect(!PrintableText.needsEscaping("\u{A0}"))
        #expect(!PrintableText.needsEscaping(" "))
    }

    @Test func bytesAreReadAsUTF8AndInvalidSequencesShownAsReplacements() {
        #expect(PrintableText.escaped(bytes: Array("/tmp/a\u{1B}b".utf8)) == #"/tmp/a\u{1B}b"#)
        #expect(PrintableText.escaped(bytes: [0x2F, 0xFF, 0x9B]) == "/\u{FFFD}\u{FFFD}")
    }
}
