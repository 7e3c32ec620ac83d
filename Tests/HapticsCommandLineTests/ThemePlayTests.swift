import HapticsMeasurement
import Foundation
import HapticsPatterns
import HapticsRendering
import HapticsSystem
import HapticsTestSupport
import Testing
@testable import HapticsCommandLine

@Suite("play <event> --theme plays a feedbackd event at a level and says what it did not play")
struct ThemePlayTests {
    /// A theme with a parent beside it: a sound (full), a rumble (quiet) and, from the parent, an LED (silent).
    private func themeFolder() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.write("""
            { "name": "base", "profiles": [
              { "name": "silent", "feedbacks": [{ "event-name": "button-pressed", "type": "Led", "color": "blue", "frequency": 1000 }] }
            ] }
            """, to: "base.json")
        try folder.write("""
            { "name": "t", "parent-name": "base", "profiles": [
              { "name": "full", "feedbacks": [{ "event-name": "button-pressed", "type": "Sound", "effect": "tick" }] },
              { "name": "quiet", "feedbacks": [
                { "event-name": "button-pressed", "type": "VibraRumble", "duration": 0x50, "count": 2, "pause": 20 },
                { "event-name": "key-pressed", "type": "VibraPattern", "magnitudes": [0.5], "durations": [30] }
              ] }
            ] }
            """, to: "t.json")
        return folder
    }

    /// The `"command":…` part of every command line, and the summary line.
    private func commands(_ output: String) -> (commands: [String], summary: String?) {
        let lines = output.split(separator: "\n").map(String.init)
        return (lines.dropLast().map { String($0[$0.range(of: #""command""#)!.lowerBound...]) }, lines.last)
    }

    private func expectedCommands(_ pattern: Pattern) -> [String] {
        Renderer(profile: .simulated).render(pattern).commands.map { timed -> String in
            var line = JSONLine()
            timed.command.addFields(to: &line)
            return String(line.text.dropFirst())
        } + [#""command":"stop"}"#]
    }

    @Test func theEventsVibrationsAreSentAsRenderedAndTheRestIsReported() throws {
        let folder = try themeFolder()
        defer { folder.remove() }
        let theme = folder.path + "/t.json"
        let result = runTool("play", "button-pressed", "--theme", theme, "--device", "simulated", "--json")
        #expect(result.status == 0)
        let pattern = try FeedbackdTheme(contentsOf: theme).pattern(for: "button-pressed", level: .full)
        let (sent, summary) = commands(result.output)
        #expect(sent == expectedCommands(pattern))
        #expect(summary?.hasPrefix(#"{"schema":1,"type":"play","feedback":"button-pressed","device":"simulated","profile":"simulated","outcome":"scheduled","felt_ms":"#) == true)
        #expect(result.error == """
            \(theme):4:74: warning: hexadecimal integer 0x50 accepted as 80
            button-pressed: Sound (full, theme t) at \(theme):2:35: not played: no sound output (--audio)
            button-pressed: Led (silent, theme base) at \(folder.path)/base.json:2:37: not haptic, not played

            """)
    }

    @Test func atLevelSilentOnlyTheLEDIsLeftAndNothingIsFelt() throws {
        let folder = try themeFolder()
        defer { folder.remove() }
        let result = runTool("play", "button-pressed", "--theme", folder.path + "/t.json", "--level", "silent",
                             "--device", "simulated", "--json")
        #expect(result.status == 1)
        #expect(result.output.hasSuffix(#""outcome":"not-played","reason":"unsupported","commands":1}"# + "\n"))
        #expect(result.error.hasSuffix("button-pressed: Led (silent, theme base) at \(folder.path)/base.json:2:37: not haptic, not played\n"))
    }

    @Test func aVocabularyNameStandsForItsFeedbackdEvent() throws {
        let folder = try themeFolder()
        defer { folder.remove() }
        let theme = folder.path + "/t.json"
        let result = runTool("play", "selection", "--theme", theme, "--level", "quiet", "--device", "simulated", "--json")
        #expect(result.status == 0)
        let pattern = try FeedbackdTheme(contentsOf: theme).pattern(for: "key-pressed", level: .quiet)
        #expect(commands(result.output).commands == expectedCommands(pattern))
        #expect(commands(result.output).summary?.hasPrefix(#"{"schema":1,"type":"play","feedback":"key-pressed","#) == true)
    }

    @Test func theSoundIsHeardFromTheSoundFolderWithAudio() throws {
        let folder = try themeFolder()
        defer { folder.remove() }
        try folder.write(pcm16WAV((0..<480).map { Int16($0) }), to: "tick.wav")
        let result = runTool("play", "button-pressed", "--theme", folder.path + "/t.json", "--device", "simulated",
                             "--audio", folder.path + "/out.wav", "--json")
        #expect(result.status == 0)
        #expect(result.output.contains(#""audio":"scheduled""#))
        #expect(result.error.contains("button-pressed: Sound (full, theme t) at \(folder.path)/t.json:2:35: heard from \(folder.path)/tick.wav\n"))
    }

    @Test func aBadThemeIsALocatedFailure() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(#"{ "name": "x", "parent-name": "gone", "profiles": [] }"#, to: "x.json")
        let result = runTool("play", "button-pressed", "--theme", folder.path + "/x.json")
        #expect(result.status == 1)
        #expect(result.error == "haptics play: \(folder.path)/x.json:1:31: parent-name: the parent theme \"gone\" was not found\n")
    }
}
