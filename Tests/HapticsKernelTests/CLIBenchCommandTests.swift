import CEvdev
import Glibc
import HapticsCommandLine
import HapticsSystem
import HapticsTestSupport
import HapticsVirtualDevices
import Testing

/// Runs the tool in-process on the guest's /dev/input, `input` as its standard input.
func runHaptics(_ arguments: [String], input: [String] = []) -> (status: Int32, output: String, error: String) {
    let console = BufferConsole(input: input)
    let status = HapticsTool.main(arguments: arguments, context: CommandContext(console: console))
    return (status, console.output, console.errorOutput)
}

/// `rumble`, `stop`, `gain` and `test` against the kernel's view of a uinput force-feedback device:
/// what the commands print, and exactly what the kernel passed on to the device.
extension EngineKernelTests {
@Suite struct CLIDeviceBenchCommands {
    /// The device's records as short lines (effect ids as the kernel gave them).
    static func lines(_ records: [UInputForceFeedbackRecord]) -> [String] {
        records.map { record in
            switch record.event {
            case let .upload(effect, _):
                switch effect.parameters {
                case let .rumble(strong, weak): return "upload \(effect.id) rumble \(strong) \(weak) \(effect.replayLength) ms"
                case let .periodic(waveform, period, magnitude, _, _, _): return "upload \(effect.id) periodic \(waveform) \(period) ms \(magnitude) \(effect.replayLength) ms"
                case let .constant(level, _): return "upload \(effect.id) constant \(level) \(effect.replayLength) ms"
                case .undecoded: return "upload \(effect.id) type \(effect.type)"
                }
            case let .erase(id): return "erase \(id)"
            case let .play(id, count): return "play \(id) ×\(count)"
            case let .stop(id): return "stop \(id)"
            case let .gain(value): return "gain \(value)"
            case let .autocenter(value): return "autocenter \(value)"
            }
        }
    }

    @Test func rumbleUploadsPlaysForTheTimeStopsAndErases() throws {
        let sink = try UInputForceFeedbackSink(.init(name: "haptics-test bench rumble", maximumEffects: 4))
        defer { sink.close() }
        let node = sink.eventNodePath
        let result = runHaptics(["rumble", "0.5", "25%", "--for", "100ms", "--device", node, "--json"])
        #expect(result.error == "")
        #expect(result.status == 0)
        #expect(result.output == #"{"schema":1,"type":"rumble","device":"\#(node)","low":0.5,"high":0.25,"duration_ms":100,"result":"accepted","accepted":["upload","erase"],"written":["play","stop"]}"# + "\n")
        // The kernel stops an effect again as it erases it.
        let records = sink.waitForRecords(count: 5)
        #expect(Self.lines(records) == ["upload 0 rumble 32768 16384 100 ms", "play 0 ×1", "stop 0", "stop 0", "erase 0"])
        // Stopped after the time asked for, not before.
        #expect(records.count == 5 && records[2].timestamp - records[1].timestamp >= .milliseconds(100))
        let text = runHaptics(["rumble", "1", "0", "--for", "20ms", "--device", "bench rumble"])
        #expect(text.output == "rumble low 100% high 0% for 20 ms on haptics-test bench rumble (\(node)): upload accepted, play written, stop written, erase accepted\n")
    }

    @Test func stopStopsAnEffectAnotherProcessLeftPlaying() throws {
        let sink = try UInputForceFeedbackSink(.init(name: "haptics-test bench stop", maximumEffects: 4))
        defer { sink.close() }
        let node = sink.eventNodePath
        // Someone else's effect, playing until stopped.
        let other = try FileDescriptor.open(node, .readWrite)
        defer { try? other.close() }
        var effect = rawRumble(strong: 0x8000, weak: 0x8000)
        try other.uploadEffect(&effect)
        try other.writeInputEvent(type: UInt16(EV_FF), code: UInt16(effect.id), value: 1)
        let result = runHaptics(["stop", "--device", node])
        #expect(result.error == "")
        #expect(result.status == 0)
        #expect(result.output == "stop written to 4 slots of haptics-test bench stop (\(node))\n")
        // uinput passes every stop on (an ff-memless driver drops those of empty slots): the one
        // that matters is slot 0's, whose effect another descriptor uploaded.
        #expect(Self.lines(sink.waitForRecords(count: 6)) == ["upload 0 rumble 32768 32768 0 ms", "play 0 ×1", "stop 0", "stop 1", "stop 2", "stop 3"])
        #expect(runHaptics(["stop", "--device", node, "--json"]).output == #"{"schema":1,"type":"stop","device":"\#(node)","slots":4}"# + "\n")
    }

    @Test func gainIsWrittenAndRefusedWhereItIsNotAdvertised() throws {
        let sink = try UInputForceFeedbackSink(.init(name: "haptics-test bench gain", effectTypes: [UInt16(FF_RUMBLE), UInt16(FF_GAIN)], maximumEffects: 4))
        defer { sink.close() }
        let node = sink.eventNodePath
        let result = runHaptics(["gain", "50%", "--device", node])
        #expect(result.error == "")
        #expect(result.status == 0)
        #expect(result.output == "gain 50% (32768 of 65535) written to haptics-test bench gain (\(node))\n")
        #expect(Self.lines(sink.waitForRecords(count: 1)) == ["gain 32768"])
        let plain = try UInputForceFeedbackSink(.init(name: "haptics-test bench no gain", maximumEffects: 4))
        defer { plain.close() }
        let refused = runHaptics(["gain", "1", "--device", plain.eventNodePath])
        #expect(refused.status == 1)
        #expect(refused.error == "haptics gain: haptics-test bench no gain (\(plain.eventNodePath)) has no gain control (FF_GAIN not advertised)\n")
    }

    @Test func testStepsThroughEveryAdvertisedTypeUnattended() throws {
        let sink = try UInputForceFeedbackSink(.init(
            name: "haptics-test bench test",
            effectTypes: [UInt16(FF_RUMBLE), UInt16(FF_PERIODIC), UInt16(FF_SINE), UInt16(FF_GAIN)], maximumEffects: 2))
        defer { sink.close() }
        let node = sink.eventNodePath
        let result = runHaptics(["test", "--device", node, "--yes", "--json"])
        #expect(result.error == "")
        #expect(result.status == 0)
        let step = #"{"schema":1,"type":"test-step","device":"\#(node)","step":"#
        let played = #""result":"accepted","accepted":["upload","erase"],"written":["play","stop"],"felt":"not-asked"}"#
        #expect(result.output.split(separator: "\n").map(String.init) == [
            step + #"1,"name":"rumble-low","# + played,
            step + #"2,"name":"rumble-high","# + played,
            step + #"3,"name":"rumble-both","# + played,
            step + #"4,"name":"periodic-sine","# + played,
            step + #"5,"name":"gain","result":"accepted","accepted":["upload","erase"],"written":["half-gain","full-gain"],"felt":"not-asked"}"#,
            step + #"6,"name":"slots","result":"accepted","accepted":["upload ×2","erase ×2"],"written":[],"slots_filled":2,"felt":"not-asked"}"#,
            #"{"schema":1,"type":"test","device":"\#(node)","steps":6,"run":6,"rejected":0,"felt":0,"not_felt":0,"skipped":0}"#,
        ])
        // Each erase is preceded by the kernel's own stop.
        let records = Self.lines(sink.waitForRecords(count: 38))
        #expect(records == [
            "upload 0 rumble 49151 0 600 ms", "play 0 ×1", "stop 0", "stop 0", "erase 0",
            "upload 0 rumble 0 49151 600 ms", "play 0 ×1", "stop 0", "stop 0", "erase 0",
            "upload 0 rumble 32768 32768 600 ms", "play 0 ×1", "stop 0", "stop 0", "erase 0",
            "upload 0 periodic \(FF_SINE) 100 ms 24575 600 ms", "play 0 ×1", "stop 0", "stop 0", "erase 0",
            "gain 32768", "upload 0 rumble 32768 32768 600 ms", "play 0 ×1", "stop 0", "stop 0", "erase 0",
            "gain 65535", "upload 0 rumble 32768 32768 600 ms", "play 0 ×1", "stop 0", "stop 0", "erase 0",
            "upload 0 rumble 32768 32768 1 ms", "upload 1 rumble 32768 32768 1 ms", "stop 0", "erase 0", "stop 1", "erase 1",
        ])
    }

    @Test func testAsksBeforeEachStepAndWhatWasFelt() throws {
        let sink = try UInputForceFeedbackSink(.init(name: "haptics-test bench ask", maximumEffects: 2))
        defer { sink.close() }
        let node = sink.eventNodePath
        // Play the first and feel it, skip the second, quit at the third.
        let result = runHaptics(["test", "--device", node], input: ["", "y", "s", "q"])
        #expect(result.status == 0)
        #expect(result.error == "  Enter plays it, s skips, q quits:   felt it? [y/n]   Enter plays it, s skips, q quits:   Enter plays it, s skips, q quits: ")
        #expect(result.output == """
            testing haptics-test bench ask (\(node)): 4 steps
            [1/4] rumble, low-frequency motor alone at 75%, 600 ms
              kernel: upload accepted, play written, stop written, erase accepted; felt
            [2/4] rumble, high-frequency motor alone at 75%, 600 ms
              skipped
            [3/4] rumble, both motors at 50%, 600 ms
            1 of 4 steps run: 0 rejected by the kernel, 1 felt, 0 not felt, 1 skipped
            written: the kernel took the event but does not say whether the driver acted on it; only feeling it tells

            """)
        #expect(Self.lines(sink.waitForRecords(count: 5)) == ["upload 0 rumble 49151 0 600 ms", "play 0 ×1", "stop 0", "stop 0", "erase 0"])
    }
}
}

/// `haptics doctor` on the guest's real /sys, /dev and /proc.
extension EngineKernelTests {
@Suite struct CLIDeviceDoctor {
    @Test func doctorFindsTheSinkAndSaysItMayBeOpened() throws {
        let sink = try UInputForceFeedbackSink(.init(name: "haptics-test doctor pad", maximumEffects: 4))
        defer { sink.close() }
        let node = sink.eventNodePath
        let lines = runDoctor(["doctor", "--json"], probingSlotsOf: node).output.split(separator: "\n").map(String.init)
        let devices = try #require(lines.first { $0.contains(#""check":"devices""#) })
        #expect(devices.contains(#""status":"ok""#) && devices.contains("\(node) haptics-test doctor pad"))
        #expect(lines.contains(#"{"schema":1,"type":"doctor-finding","check":"access","status":"ok","message":"\#(node) may be opened for reading and writing"}"#))
        // The guest runs as root: realtime priority is allowed.
        #expect(lines.contains(#"{"schema":1,"type":"doctor-finding","check":"realtime","status":"ok","message":"the realtime threads get SCHED_FIFO 50 by themselves"}"#))
        #expect(lines.last?.hasPrefix(#"{"schema":1,"type":"doctor","findings":"#) == true)
    }
}
}

/// `play --profile` and `demo` on a device the kernel sees.
extension EngineKernelTests {
@Suite struct CLIDeviceProfiles {
    @Test func playHonoursABuiltInProfileAndAProfileFileOnARealDevice() throws {
        let sink = try UInputForceFeedbackSink(.init(name: "haptics-test profile pad", maximumEffects: 16))
        defer { sink.close() }
        let node = sink.eventNodePath
        let builtIn = runHaptics(["play", "impact.heavy", "--device", node, "--profile", "xbox", "--json"])
        #expect(builtIn.error == "")
        #expect(builtIn.status == 0)
        #expect(builtIn.output.hasPrefix(#"{"schema":1,"type":"play","feedback":"impact.heavy","device":"\#(node)","name":"haptics-test profile pad","profile":"xbox","outcome":"scheduled","#))
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("base = dualsense\nname = my-pad\nrise-time-ms = 35\n", to: "pad.profile")
        let file = runHaptics(["play", "impact.heavy", "--device", node, "--profile", folder.path + "/pad.profile", "--json"])
        #expect(file.error == "")
        #expect(file.status == 0)
        #expect(file.output.contains(#""profile":"my-pad","outcome":"scheduled""#))
        try folder.write("base = dualsense\nrise-time-ms = 2000\n", to: "bad.profile")
        let bad = runHaptics(["play", "impact.heavy", "--device", node, "--profile", folder.path + "/bad.profile"])
        #expect(bad.status == 1)
        #expect(bad.error == "haptics play: \(folder.path)/bad.profile:2:16: 'rise-time-ms' is 2000, outside 0…1000 ms\n")
    }

    @Test func demoPlaysTheVocabularyOnARealDevice() throws {
        let sink = try UInputForceFeedbackSink(.init(name: "haptics-test demo pad", maximumEffects: 16))
        defer { sink.close() }
        let node = sink.eventNodePath
        let result = runHaptics(["demo", "--device", node, "--json"])
        #expect(result.error == "")
        #expect(result.status == 0)
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 9)
        #expect(lines.allSatisfy { $0.contains(#""device":"\#(node)""#) && $0.contains(#""outcome":"scheduled""#) })
        // Every item reached the device: at least one play each.
        let plays = sink.records.filter { if case .play = $0.event { true } else { false } }
        #expect(plays.count >= 9)
    }
}
}
