import Glibc
import HapticsPatterns
import HapticsSystem
import Testing
@testable import HapticsCommandLine
import HapticsTestSupport

/// `validate` checks a bundle the way `play` loads it — the pattern and its sounds — never blocks on
/// what it is given, and prints the text it quotes escaped.
@Suite struct ValidateCommandTests {
    /// A pattern with one haptic and one `AudioCustom` event naming `waveform`.
    static func pattern(waveform: String) -> String {
        """
        {"Pattern": [
          {"Event": {"Time": 0, "EventType": "HapticTransient"}},
          {"Event": {"Time": 0.25, "EventType": "AudioCustom", "EventWaveformPath": \(JSONString.quoted(waveform))}}
        ]}
        """
    }

    /// Neither stream holds a character a terminal would act on (newlines end lines).
    static func isPrintable(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { $0 == "\n" || !PrintableText.needsEscaping($0) }
    }

    @Test func keysWithTerminalControlsArePrintedEscaped() throws {
        let folder = try TemporaryFolder()
        let file = folder.path + "/evil.ahap"
        // ESC ] 0 ; pwned BEL retitles the terminal; CSI 2 J (C1 U+009B, raw in the file) clears it.
        try folder.write("""
            {"Pattern": [
              {"Event": {"Time": 0, "EventType": "HapticTransient", "\\u001b]0;pwned\\u0007": 1, "\u{9B}2J": 2}}
            ]}
            """, to: "evil.ahap")
        let result = runTool("validate", file)
        #expect(result.status == 0)
        #expect(result.error == """
            \(file):2:57: warning: Pattern[0].Event.\\u{1B}]0;pwned\\u{07}: unknown key ignored
            \(file):2:84: warning: Pattern[0].Event.\\u{9B}2J: unknown key ignored

            """)
        #expect(result.output == "\(file): ok (1 haptic, 0 audio events, 0 s, 2 warnings)\n")
        #expect(Self.isPrintable(result.error) && Self.isPrintable(result.output))
    }

    @Test func aFileNameWithControlsIsEscapedInTextAndInJSON() throws {
        let folder = try TemporaryFolder()
        let name = "t\u{1B}]0;x\u{07}\u{9B}.ahap"
        try folder.write(AHAPEncoder().encode(Feedback.selection.canonicalPattern), to: name)
        let text = runTool("validate", folder.path + "/" + name)
        #expect(text.output == "\(folder.path)/t\\u{1B}]0;x\\u{07}\\u{9B}.ahap: ok (1 haptic, 0 audio events, 0.04 s, 0 warnings)\n")
        let json = runTool("validate", "--json", folder.path + "/" + name)
        #expect(json.output.hasPrefix(#"{"schema":1,"type":"validation","file":"\#(folder.path)/t\u001b]0;x\u0007\u009b.ahap","valid":true"#))
        let missing = runTool("validate", "--json", folder.path + "/gone\u{1B}[2J.ahap")
        #expect(missing.status == 1)
        #expect(missing.error == "\(folder.path)/gone\\u{1B}[2J.ahap: cannot open the file: No such file or directory\n")
        #expect(Self.isPrintable(missing.output) && Self.isPrintable(missing.error))
    }

    @Test(.timeLimit(.minutes(1))) func aFIFOReturnsAtOnceWithALocatedError() throws {
        let folder = try TemporaryFolder()
        let fifo = folder.path + "/pipe.ahap"
        try #require(mkfifo(fifo, 0o600) == 0)
        // No writer ever opens the FIFO: a blocking open or read would wait forever.
        let result = runTool("validate", fifo)
        #expect(result.status == 1)
        #expect(result.error == "\(fifo): not a regular file\n")
        // The same for a FIFO named as a pattern's waveform.
        try #require(mkfifo(folder.path + "/pipe.wav", 0o600) == 0)
        try folder.write(Self.pattern(waveform: "pipe.wav"), to: "p.ahap")
        let sound = runTool("validate", folder.path + "/p.ahap")
        #expect(sound.status == 1)
        #expect(sound.error == "\(folder.path)/p.ahap:3:77: AudioCustom event at 0.25 s: EventWaveformPath \"pipe.wav\" is not a regular file\n")
    }

    @Test func validateAndPlayAgreeOnAPatternWithoutEvents() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(#"{"Version": 1, "Pattern": []}"#, to: "empty.ahap")
        let file = folder.path + "/empty.ahap"
        let validate = runTool("validate", file)
        #expect(validate.status == 1)
        #expect(validate.output == "")
        #expect(validate.error == "\(file): the pattern has no events: nothing to play\n")
        let play = runTool("play", file, "--device", "simulated")
        #expect(play.status == 1)
        #expect(play.output == "")
        #expect(play.error == "haptics play: \(file): the pattern has no events: nothing to play\n")
    }

    @Test func theSoundsArePartOfTheBundle() throws {
        let folder = try TemporaryFolder()
        try folder.write(pcm16WAV([8_192, -8_192]), to: "sounds/tick.wav")
        try folder.write(Self.pattern(waveform: "sounds/tick.wav"), to: "good.ahap")
        let good = runTool("validate", folder.path + "/good.ahap")
        #expect(good.status == 0)
        #expect(good.output == "\(folder.path)/good.ahap: ok (1 haptic, 1 audio event, 0.25 s, 0 warnings)\n")

        try folder.write(Self.pattern(waveform: "sounds/gone.wav"), to: "missing.ahap")
        try folder.write("not audio", to: "sounds/text.wav")
        try folder.write(Self.pattern(waveform: "sounds/text.wav"), to: "bad.ahap")
        try folder.write(Self.pattern(waveform: "../x.wav"), to: "climb.ahap")
        let result = runTool("validate", folder.path + "/missing.ahap", folder.path + "/bad.ahap", folder.path + "/climb.ahap",
                             folder.path + "/good.ahap")
        #expect(result.status == 1)
        // Located at the line and column of the event's EventWaveformPath.
        let event = "3:77: AudioCustom event at 0.25 s"
        #expect(result.error == """
            \(folder.path)/missing.ahap:\(event): EventWaveformPath "sounds/gone.wav": no such file
            \(folder.path)/bad.ahap:\(event): EventWaveformPath "sounds/text.wav": not a WAV file: expected "RIFF" and "WAVE" in the first 12 bytes
            \(folder.path)/climb.ahap:\(event): EventWaveformPath "../x.wav" leaves the pattern's folder

            """)
        #expect(result.output == "\(folder.path)/good.ahap: ok (1 haptic, 1 audio event, 0.25 s, 0 warnings)\n")
        let json = runTool("validate", "--json", folder.path + "/missing.ahap")
        #expect(json.output == #"{"schema":1,"type":"validation","file":"\#(folder.path)/missing.ahap","valid":false,"error":"\#(folder.path)/missing.ahap:\#(event): EventWaveformPath \"sounds/gone.wav\": no such file"}"# + "\n")
    }

    @Test func aHugeWaveformAndALinkOutAreRefusedWithoutReadingThem() throws {
        let outside = try TemporaryFolder()
        try outside.write(pcm16WAV([1]), to: "secret.wav")
        let folder = try TemporaryFolder()
        try folder.write(pcm16WAV([1]), to: "huge.wav")
        try #require(truncate(folder.path + "/huge.wav", 1 << 30) == 0)   // sparse: no block on disk
        try #require(symlink(outside.path + "/secret.wav", folder.path + "/link.wav") == 0)
        try folder.write(Self.pattern(waveform: "huge.wav"), to: "huge.ahap")
        try folder.write(Self.pattern(waveform: "link.wav"), to: "link.ahap")
        let huge = runTool("validate", folder.path + "/huge.ahap")
        #expect(huge.error == "\(folder.path)/huge.ahap:3:77: AudioCustom event at 0.25 s: "
            + "EventWaveformPath \"huge.wav\" is 1073741824 bytes, more than the limit of 16777216 bytes\n")
        let link = runTool("validate", folder.path + "/link.ahap")
        #expect(link.status == 1)
        #expect(link.error.hasPrefix("\(folder.path)/link.ahap:3:77: AudioCustom event at 0.25 s: "
            + "EventWaveformPath \"link.wav\" leaves the pattern's folder through a symbolic link (to "))
        #expect(link.error.hasSuffix("/secret.wav)\n"))
    }

    @Test func validateReportsASoundErrorExactlyAsPlayDoes() throws {
        let folder = try TemporaryFolder()
        try folder.write(Self.pattern(waveform: "gone\u{1B}]0;x\u{07}.wav"), to: "p.ahap")
        let file = folder.path + "/p.ahap"
        let validate = runTool("validate", file)
        let play = runTool("play", file, "--device", "simulated", "--audio", folder.path + "/out.wav")
        #expect(validate.status == 1)
        #expect(play.status == 1)
        let located = "\(file):3:77: AudioCustom event at 0.25 s: EventWaveformPath \"gone\\u{1B}]0;x\\u{07}.wav\": no such file\n"
        #expect(validate.error == located)
        #expect(play.error == "haptics play: " + located)
    }
}
