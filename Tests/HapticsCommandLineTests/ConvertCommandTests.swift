import HapticsMeasurement
import Foundation
import HapticsPatterns
import HapticsRendering
import Testing
@testable import HapticsCommandLine
import HapticsTestSupport

/// `convert` reads any format by content and writes the one the output's extension names.
@Suite struct ConvertCommandTests {
    static let clip = """
        {
          "version": { "major": 1, "minor": 0, "patch": 0 },
          "signals": { "continuous": { "envelopes": {
            "amplitude": [ { "time": 0, "amplitude": 0.5 }, { "time": 0.1, "amplitude": 0.5 },
                           { "time": 0.1, "amplitude": 0, "emphasis": { "amplitude": 1, "frequency": 0.75 } } ],
            "frequency": [ { "time": 0, "frequency": 0.25 } ]
          } } }
        }
        """

    @Test func aClipNamedLikeAnythingBecomesAHAP() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(Self.clip, to: "clip.json")
        let result = runTool("convert", folder.path + "/clip.json", "-o", folder.path + "/out.ahap")
        #expect(result.status == 0)
        let written = try String(contentsOfFile: folder.path + "/out.ahap", encoding: .utf8)
        #expect(result.error == "wrote \(folder.path)/out.ahap (\(written.utf8.count) bytes)\n")
        #expect(result.output == "\(folder.path)/clip.json (.haptic clip) → \(folder.path)/out.ahap (AHAP): 2 haptic events, 0.1 s\n")
        let json = runTool("convert", folder.path + "/clip.json", "-o", folder.path + "/again.ahap", "--json")
        #expect(json.output == #"{"schema":1,"type":"conversion","input":"\#(folder.path)/clip.json","input_format":"haptic","output":"\#(folder.path)/again.ahap","output_format":"ahap","haptic_events":2,"duration_s":0.1}"# + "\n")
        #expect(try AHAPDecoder().decode(written, fileName: "out.ahap").pattern.events == [
            PatternEvent(kind: .hapticContinuous, time: 0, duration: 0.1, parameters: EventParameters(hapticIntensity: 0.5, hapticSharpness: 0.25)),
            PatternEvent(kind: .hapticTransient, time: 0.1, parameters: EventParameters(hapticIntensity: 1, hapticSharpness: 0.75)),
        ])
    }

    @Test(arguments: Feedback.vocabulary.map(\.canonicalFileName))
    func canonicalPatternsSurviveAHAPToClipToAHAP(_ name: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let source = Repository.root + "/Patterns/" + name
        #expect(runTool("convert", source, "-o", folder.path + "/p.haptic").status == 0)
        #expect(runTool("convert", folder.path + "/p.haptic", "-o", folder.path + "/back.ahap").status == 0)
        let original = try decodePattern(contentsOf: source).pattern
        let back = try decodePattern(contentsOf: folder.path + "/back.ahap").pattern
        try #require(back.events.count == original.events.count)
        for (was, now) in zip(original.events, back.events) {
            #expect(now.kind == was.kind)
            #expect(abs(now.time - was.time) <= 0.001 && abs(now.resolvedDuration - was.resolvedDuration) <= 0.001)
            #expect(abs(now.parameters.resolvedIntensity - was.parameters.resolvedIntensity) <= 1.0 / 255)
            #expect(abs(now.parameters.resolvedSharpness - was.parameters.resolvedSharpness) <= 1.0 / 255)
        }
    }

    @Test func whatAClipCannotHoldIsReported() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(#"{"Pattern": [{"Event": {"Time": 0, "EventType": "HapticTransient"}}, {"Event": {"Time": 0, "EventType": "AudioContinuous", "EventDuration": 0.2}}]}"#, to: "in.ahap")
        let result = runTool("convert", folder.path + "/in.ahap", "--output=" + folder.path + "/out.haptic")
        #expect(result.status == 0)
        let size = try String(contentsOfFile: folder.path + "/out.haptic", encoding: .utf8).utf8.count
        #expect(result.error == "\(folder.path)/out.haptic: warning: left out 1 audio event; a .haptic clip cannot hold it\nwrote \(folder.path)/out.haptic (\(size) bytes)\n")
    }

    @Test func inputErrorsAreLocatedAndNothingIsWritten() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(#"{"version": {"major": 3}, "signals": {}}"#, to: "new.haptic")
        let result = runTool("convert", folder.path + "/new.haptic", "-o", folder.path + "/out.ahap")
        #expect(result.status == 1)
        #expect(result.error == "haptics convert: \(folder.path)/new.haptic:1:23: version.major: unsupported major version 3; this reader supports version 1 clips\n")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/out.ahap"))
    }

    @Test func aThemeNeedsAnEvent() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(#"{"name": "default", "profiles": []}"#, to: "theme.json")
        let result = runTool("convert", folder.path + "/theme.json", "-o", folder.path + "/out.ahap")
        #expect(result.status == 64)
        #expect(result.error.hasPrefix("haptics convert: \(folder.path)/theme.json is a feedbackd theme: give --event <name> to convert one of its events."))
    }

    @Test func usageErrors() {
        #expect(runTool("convert").error == "haptics convert: missing the file to convert. See 'haptics convert --help'.\n")
        #expect(runTool("convert", "a.ahap").error == "haptics convert: missing -o <out.ahap|out.haptic>. See 'haptics convert --help'.\n")
        #expect(runTool("convert", "a.ahap", "-o", "b.json").error
            == "haptics convert: cannot tell what to write to 'b.json': name it .ahap or .haptic. See 'haptics convert --help'.\n")
        #expect(runTool("convert", "a.ahap", "-o", "b.json").status == 64)
    }

    @Test func validateAcceptsClips() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(Self.clip, to: "clip.haptic")
        let text = runTool("validate", folder.path + "/clip.haptic")
        #expect(text.status == 0)
        #expect(text.output == "\(folder.path)/clip.haptic: ok (.haptic clip, 2 haptic, 0 audio events, 0.1 s, 0 warnings)\n")
        let json = runTool("validate", "--json", folder.path + "/clip.haptic")
        #expect(json.output == #"{"schema":1,"type":"validation","file":"\#(folder.path)/clip.haptic","valid":true,"format":"haptic","events":2,"warnings":0,"duration_s":0.1}"# + "\n")
    }

    @Test func playSendsWhatAClipRendersTo() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(Self.clip, to: "buzz.haptic")
        let result = runTool("play", folder.path + "/buzz.haptic", "--profile", "dualsense", "--json")
        #expect(result.status == 0)
        let pattern = try HapticClipDecoder().decode(Self.clip, fileName: "buzz.haptic").pattern
        let program = Renderer(profile: .dualSense).render(pattern)
        let lines = result.output.split(separator: "\n").map(String.init)
        let commands = lines.dropLast().map { String($0[$0.range(of: #""command""#)!.lowerBound...]) }
        var expected = program.commands.map { timed -> String in
            var line = JSONLine()
            timed.command.addFields(to: &line)
            return String(line.text.dropFirst())
        }
        expected.append(#""command":"stop"}"#)   // the engine's own stop when it shuts down
        #expect(commands == expected)
    }

    @Test func helpMatchesTheCommand() {
        #expect(runTool("convert", "--help").output == """
            OVERVIEW: Convert a pattern between AHAP and .haptic clips, a feedbackd theme's event or a sound to either.

            USAGE:
              haptics convert <in> -o <out.ahap|out.haptic> [--json]
              haptics convert <sound.wav> -o <out.ahap|out.haptic> [--actuator rumble|voice-coil] [--sensitivity <0…1>] [--gain <dB>] [--band <low>-<high>] [--min-event <s>] [--min-gap <s>] [--tolerance <x>] [--no-sound] [--json]
              haptics convert <theme.json> --event <name> [--level full|quiet|silent] [--theme-path <folder>]... -o <out.ahap|out.haptic> [--json]

            ARGUMENTS AND OPTIONS:
              <in>                   An AHAP file, a .haptic clip or a feedbackd theme, whatever its name; or a sound, named .wav.
              -o, --output <file>    Write a file, what by its extension: .ahap AHAP, .haptic a clip.
              --event <name>         The event of a feedbackd theme to convert (themes only): its vibrations at the level, felt together.
              --level <level>        The feedbackd profile for --event: full (default), quiet or silent; a level plays its section and the quieter ones.
              --theme-path <folder>  Also look for themes and their parents here, before $XDG_CONFIG_HOME/feedbackd/themes and each $XDG_DATA_DIRS/feedbackd/themes. Repeatable.
              --actuator <kind>      For a .wav input: the actuator the haptics are for, rumble (default: motors) or voice-coil; it sets the default --band.
              --sensitivity <0…1>    For a .wav input: how readily a rise in the sound is a transient; 0 keeps only clear hits, 1 takes small ones (default 0.5).
              --gain <dB>            For a .wav input: decibels added to the sound's level; intensity maps −48…0 dBFS to 0…1 (default 0; negative leaves headroom).
              --band <low>-<high>    For a .wav input: the frequencies in Hz mapped onto sharpness 0…1 (default 50-5000 for rumble, 40-1000 for voice-coil).
              --min-event <s>        For a .wav input: the shortest continuous event, and the shortest gap that splits one (default 0.05).
              --min-gap <s>          For a .wav input: the shortest time between two transients (default 0.05).
              --tolerance <x>        For a .wav input: how far the simplified curves may stray from the measured ones (default 0.04).
              --no-sound             For a .wav input: leave the sound out of the AHAP pattern (by default an AudioCustom event plays it, so it must be in the pattern's folder or below).
              --json                 One JSON object saying what was written.
              -h, --help             Show this help.

            Warnings about the input go to standard error as file:line:column: path: message, and so
            does what the output format cannot hold (a .haptic clip has no audio events). A clip holds
            one envelope: the events of an AHAP file are flattened into it as they are felt, and come
            back as events when the clip is read again (docs/reference/formats.md has the mapping).
            A sound becomes transients at its hits and a continuous event whose intensity and sharpness
            curves follow its loudness and brightness; silence becomes nothing (docs/guides/haptics-from-sound.md).

            """)
    }
}
