import HapticsMeasurement
import Foundation
import HapticsPatterns
import HapticsTestSupport
import Testing
@testable import HapticsCommandLine

/// `convert --event` and `validate` read feedbackd themes, with their parents, by content.
@Suite struct ThemeConvertTests {
    /// A device theme over a parent beside it: the parent rumbles in quiet, the child adds a
    /// pattern in full and an LED in silent.
    private func themeFolder() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.write("""
            { "name": "base", "profiles": [
              { "name": "quiet", "feedbacks": [{ "event-name": "button-pressed", "type": "VibraRumble", "duration": 40 }] }
            ] }
            """, to: "base.json")
        try folder.write("""
            { "name": "phone", "parent-name": "base", "profiles": [
              { "name": "full", "feedbacks": [
                { "event-name": "button-pressed", "type": "VibraPattern", "magnitudes": [0.5, 0, 1], "durations": [20, 10, 30] }
              ] },
              { "name": "silent", "feedbacks": [{ "event-name": "battery-low", "type": "Led", "color": "red", "frequency": 1000 }] }
            ] }
            """, to: "phone.json")
        return folder
    }

    @Test func aThemesEventBecomesTheAHAPOfItsVibrationsAtTheLevel() throws {
        let folder = try themeFolder()
        defer { folder.remove() }
        let theme = try FeedbackdTheme(contentsOf: folder.path + "/phone.json")
        for (level, name) in [(FeedbackdLevel.full, "full"), (.quiet, "quiet")] {
            let out = folder.path + "/\(name).ahap"
            let result = runTool("convert", folder.path + "/phone.json", "--event", "button-pressed", "--level", name, "-o", out)
            #expect(result.status == 0)
            let size = try String(contentsOfFile: out, encoding: .utf8).utf8.count
            #expect(result.error == "wrote \(out) (\(size) bytes)\n")
            let expected = try theme.pattern(for: "button-pressed", level: level)
            let haptic = expected.events.filter(\.kind.isHaptic).count
            #expect(result.output == "\(folder.path)/phone.json (feedbackd theme) → \(out) (AHAP): \(haptic) haptic event\(haptic == 1 ? "" : "s"), \(JSONLine.number(expected.duration, digits: 3)) s\n")
            #expect(try String(contentsOfFile: out, encoding: .utf8) == AHAPEncoder().encode(expected))
        }
        // Full plays the child's pattern over the parent's quiet rumble: more than quiet alone.
        let full = try theme.pattern(for: "button-pressed", level: .full)
        let quiet = try theme.pattern(for: "button-pressed", level: .quiet)
        #expect(full.events.count > quiet.events.count)
    }

    @Test func aThemeNeedsAnEventAndAnEventNeedsVibrations() throws {
        let folder = try themeFolder()
        defer { folder.remove() }
        let theme = folder.path + "/phone.json"
        let noEvent = runTool("convert", theme, "-o", folder.path + "/x.ahap")
        #expect(noEvent.status == 64)
        #expect(noEvent.error.contains("\(theme) is a feedbackd theme: give --event <name> to convert one of its events"))
        let ledOnly = runTool("convert", theme, "--event", "battery-low", "-o", folder.path + "/x.ahap")
        #expect(ledOnly.status == 1)
        #expect(ledOnly.error.contains(#"the event "battery-low" has no haptic feedback"#))
        let badLevel = runTool("convert", theme, "--event", "button-pressed", "--level", "loud", "-o", folder.path + "/x.ahap")
        #expect(badLevel.status == 64)
        #expect(badLevel.error.contains("--level must be full, quiet or silent, not 'loud'"))
    }

    @Test func validateReadsAThemeWithItsParents() throws {
        let folder = try themeFolder()
        defer { folder.remove() }
        let theme = folder.path + "/phone.json"
        let text = runTool("validate", theme)
        #expect(text.status == 0)
        #expect(text.output == "\(theme): ok (feedbackd theme \"phone\" over \"base\" (\(folder.path)/base.json), 2 events, 1 felt at full, 0 warnings)\n")
        let json = runTool("validate", theme, "--json")
        #expect(json.output == #"{"schema":1,"type":"validation","file":"\#(theme)","valid":true,"format":"feedbackd-theme","name":"phone","parents":1,"chain":[{"name":"phone","file":"\#(theme)"},{"name":"base","file":"\#(folder.path)/base.json"}],"events":2,"haptic_events":1,"warnings":0}"# + "\n")
        try folder.write(#"{ "name": "orphan", "parent-name": "nowhere", "profiles": [] }"#, to: "orphan.json")
        let orphan = runTool("validate", folder.path + "/orphan.json")
        #expect(orphan.status == 1)
        #expect(orphan.error.contains("nowhere"))
    }
}
