import HapticsMeasurement
import Foundation
import HapticsAudio
import HapticsDevices
import HapticsPatterns
import HapticsRendering
import Testing
@testable import HapticsCommandLine
import HapticsTestSupport

@Suite("Commands")
struct CommandTests {
    @Test("list prints the vocabulary")
    func list() {
        let result = runTool("list")
        #expect(result.status == 0)
        #expect(result.output == """
            notification.success  2 events  240 ms
            notification.warning  2 events  280 ms
            notification.error    4 events  480 ms
            impact.light          1 event   40 ms
            impact.medium         1 event   80 ms
            impact.heavy          1 event   160 ms
            impact.soft           1 event   160 ms
            impact.rigid          1 event   40 ms
            selection             1 event   40 ms

            """)
    }

    @Test("list --json is one object per line")
    func listJSON() {
        let lines = runTool("list", "--json").output.split(separator: "\n")
        #expect(lines.count == 9)
        #expect(lines.first == #"{"schema":1,"type":"feedback","feedback":"notification.success","events":2,"duration_ms":240}"#)
        #expect(lines.last == #"{"schema":1,"type":"feedback","feedback":"selection","events":1,"duration_ms":40}"#)
    }

    @Test("validate: exit 0 when all decode, 1 with located errors otherwise")
    func validate() throws {
        let scratch = try TemporaryFolder()
        defer { scratch.remove() }
        let folder = scratch.path
        let good = folder + "/good.ahap"
        let bad = folder + "/bad.ahap"
        try AHAPEncoder().encode(Feedback.selection.canonicalPattern).write(toFile: good, atomically: true, encoding: .utf8)
        try """
            {
              "Pattern": [
                { "Event": { "Time": 0, "EventType": "HapticContinuous", "EventDuration": "abc" } }
              ]
            }
            """.write(toFile: bad, atomically: true, encoding: .utf8)

        let ok = runTool("validate", good)
        #expect(ok.status == 0)
        #expect(ok.output == "\(good): ok (1 haptic, 0 audio events, 0.04 s, 0 warnings)\n")

        let mixed = runTool("validate", good, bad)
        #expect(mixed.status == 1)
        #expect(mixed.error == "\(bad):3:79: Pattern[0].Event.EventDuration: expected a number ≥ 0, found \"abc\"\n")

        let missing = runTool("validate", folder + "/missing.ahap")
        #expect(missing.status == 1)
        #expect(missing.error.hasPrefix("\(folder)/missing.ahap: "))
    }

    @Test("play on the simulated device sends exactly the rendered program, then a summary")
    func playJSON() throws {
        let result = runTool("play", "impact.rigid", "--profile", "dualsense", "--json")
        #expect(result.status == 0)
        let lines = result.output.split(separator: "\n").map(String.init)
        let program = Renderer(profile: .dualSense).render(Feedback.impact(.rigid).canonicalPattern)
        // The program's commands, then the engine's own stop when it shuts down.
        let commands = lines.dropLast().map { line in
            String(line[line.range(of: #""command""#)!.lowerBound...])
        }
        var expected = program.commands.map { timed -> String in
            var line = JSONLine()
            timed.command.addFields(to: &line)
            return String(line.text.dropFirst())
        }
        expected.append(#""command":"stop"}"#)
        #expect(commands == expected)
        let summary = try #require(lines.last)
        #expect(summary.hasPrefix(#"{"schema":1,"type":"play","feedback":"impact.rigid","device":"simulated","profile":"dualsense","outcome":"scheduled","felt_ms":"#))
        #expect(summary.hasSuffix(#","commands":\#(program.commands.count + 1)}"#))
    }

    @Test("play -o writes an SVG and a WAV of what the device did, and says so")
    func playWritesFiles() throws {
        let scratch = try TemporaryFolder()
        defer { scratch.remove() }
        let folder = scratch.path
        let result = runTool("play", "notification.success", "-o", folder + "/p.svg", "--output=" + folder + "/p.wav")
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("notification.success on the simulated device (profile simulated)\nstrong │"))
        let svg = try String(contentsOfFile: folder + "/p.svg", encoding: .utf8)
        #expect(svg.hasPrefix("<?xml") || svg.hasPrefix("<svg"))
        #expect(svg.contains("notification.success on"))
        let wavSize = try #require(try FileManager.default.attributesOfItem(atPath: folder + "/p.wav")[.size] as? Int)
        #expect(result.error == "wrote \(folder)/p.svg (\(svg.utf8.count) bytes)\nwrote \(folder)/p.wav (\(wavSize) bytes)\n")
        let wav = try WAVReader.read(contentsOf: folder + "/p.wav")
        #expect(wav.sampleRate == 48_000)
        #expect(wav.channelCount == 1)
        // The recording runs from the request to the engine's final stop: at least the pattern.
        #expect(wav.frameCount >= 48_000 * 240 / 1000)
        #expect(wav.samples.contains { $0 != 0 })
    }

    @Test("plot renders a file without playing it")
    func plotFile() throws {
        let scratch = try TemporaryFolder()
        defer { scratch.remove() }
        let folder = scratch.path
        let result = runTool("plot", "impact.heavy", "-o", folder + "/h.svg", "--profile", "generic-rumble")
        #expect(result.status == 0)
        let program = Renderer(profile: .genericRumble).render(Feedback.impact(.heavy).canonicalPattern)
        #expect(result.output == "\(folder)/h.svg: \(program.commands.count) commands over 160 ms\n")
        #expect(program.durationNanoseconds == 160_000_000)
        let svg = try String(contentsOfFile: folder + "/h.svg", encoding: .utf8)
        #expect(svg.contains("continuous 160 ms"))
        #expect(result.error == "wrote \(folder)/h.svg (\(svg.utf8.count) bytes)\n")
        let json = runTool("plot", "impact.heavy", "--output", folder + "/j.svg", "--json")
        #expect(json.output == #"{"schema":1,"type":"plot","feedback":"impact.heavy","file":"\#(folder)/j.svg","profile":"simulated","commands":\#(Renderer(profile: .simulated).render(Feedback.impact(.heavy).canonicalPattern).commands.count),"duration_ms":160}"# + "\n")
    }

    @Test("an output the command cannot write is refused before anything runs", arguments: [
        (["plot", "selection", "-o", "x.png"], "haptics plot: cannot tell what to write to 'x.png': name it .svg. See 'haptics plot --help'.\n"),
        (["play", "selection", "-o", "x.mp3"], "haptics play: cannot tell what to write to 'x.mp3': name it .svg or .wav. See 'haptics play --help'.\n"),
        (["convert", "a.ahap", "-o", "b.json"], "haptics convert: cannot tell what to write to 'b.json': name it .ahap or .haptic. See 'haptics convert --help'.\n"),
        (["latency", "--output", "l.pdf"], "haptics latency: cannot tell what to write to 'l.pdf': name it .svg. See 'haptics latency --help'.\n"),
        (["plot", "selection", "-o", "a.svg", "-o", "b.svg"], "haptics plot: -o given twice. See 'haptics plot --help'.\n"),
        (["play", "selection", "-o", "a.svg", "-o", "b.svg"], "haptics play: two .svg outputs. See 'haptics play --help'.\n"),
    ])
    func unknownOutputs(arguments: [String], message: String) {
        let result = runTool(arguments)
        #expect(result.status == 64)
        #expect(result.error == message)
        #expect(result.output == "")
    }

    @Test("ALSA's own message is part of the error, taken from its error handler")
    func alsaMessage() {
        let result = runTool("play", "selection", "--device", "simulated", "--audio", "nope")
        #expect(result.status == 1)
        #expect(result.output == "")
        #expect(result.error == "haptics play: cannot open audio device \"nope\": snd_pcm_open: No such file or directory (errno 2); ALSA: Unknown PCM nope\n")
    }

    @Test("a file that cannot be written says why")
    func writeError() {
        let result = runTool("plot", "selection", "-o", "/nonexistent/dir/p.svg")
        #expect(result.status == 1)
        #expect(result.error == "haptics plot: cannot write /nonexistent/dir/p.svg: No such file or directory\n")
    }

    @Test("a pattern file that does not decode fails with the located error and exit 1")
    func playBadFile() throws {
        let scratch = try TemporaryFolder()
        defer { scratch.remove() }
        let folder = scratch.path
        let bad = folder + "/bad.ahap"
        try #"{"Pattern": [ {"Event": {"Time": -1, "EventType": "HapticTransient"}} ]}"#.write(toFile: bad, atomically: true, encoding: .utf8)
        let result = runTool("play", bad)
        #expect(result.status == 1)
        #expect(result.error == "haptics play: \(bad):1:34: Pattern[0].Event.Time: expected a number ≥ 0, found -1\n")
        #expect(result.output == "")
    }
}
