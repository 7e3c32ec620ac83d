@testable import HapticsMeasurement
import Foundation
import Glibc
import Haptics
import HapticsAudio
import HapticsPatterns
import HapticsRendering
import HapticsScheduler
import Testing
@testable import HapticsCommandLine
import HapticsSystem
import HapticsTestSupport

@Suite("sync-test and play --audio")
struct SyncTestCommandTests {
    @Test("sync-test --help is rendered from the command's metadata")
    func help() {
        let result = runTool("sync-test", "--help")
        #expect(result.status == 0)
        #expect(result.output == """
            OVERVIEW: Measure sound-to-haptic sync through a loopback sound card (snd-aloop).

            USAGE:
              haptics sync-test [--device <path|name>] [--audio <alsa-device>] [--capture <alsa-device>] [--cues <n>] [--profile <name|file>] [--trace <file.json>] [--json]

            ARGUMENTS AND OPTIONS:
              --device <device>        Where the haptics play: an event node path or part of a device's name. Default: a uinput device created for the test (needs write access to /dev/uinput), else the first force-feedback device.
              --audio <alsa-device>    Where the sound plays (default: hw:Loopback,0,0).
              --capture <alsa-device>  Where the played sound is captured again (default: hw:Loopback,1,0).
              --cues <n>               How many cues to play, cycling through the vocabulary (default: 9).
              --profile <name|file>    Profile of the created uinput device: a built-in name or a profile file (default: generic-rumble, 60 ms rise time).
              --trace <file.json>      Write the engine's trace: every command's stages (submitted, dequeued, written, felt), as Chrome/Perfetto trace-event JSON (ui.perfetto.dev, chrome://tracing).
              --json                   One JSON object per cue, then one with the summary.
              -h, --help               Show this help.

            Each cue is played through the engine with its sound: the haptic starts early by the device's
            rise time and the sound is placed to be heard at the same instant. The capture gives the
            instant each sound was heard (CLOCK_MONOTONIC); the device gives the instant its haptic
            started (the kernel's timestamp on a uinput device). The residual is heard − (start + rise
            time). Exits 1 when a residual exceeds one audio period or a cue was not found.
            Load the loopback card first: sudo modprobe snd-aloop.

            """)
        #expect(runTool("help", "sync-test").output == result.output)
    }

    @Test("sync-test without the loopback card says how to get it and exits 1",
          .enabled(if: access("/proc/asound/Loopback", F_OK) != 0, "this machine has a Loopback card"))
    func noLoopbackCard() {
        let result = runTool("sync-test", "--cues", "3")
        #expect(result.status == 1)
        #expect(result.output == "")
        #expect(result.error == "haptics sync-test: no Loopback sound card: load snd-aloop (sudo modprobe snd-aloop) or give --audio and a capture device\n")
    }

    @Test("the residual table: times from each cue's onset, what the sound devices and the machine went through, then |residual| percentiles")
    func report() {
        func at(_ milliseconds: Double) -> MonotonicInstant { MonotonicInstant(nanoseconds: 5_000_000_000 + Int64(milliseconds * 1e6)) }
        var rows = [
            SyncLoopbackTest.Measurement(cue: .feedback(.impact(.heavy)), onset: at(0), hapticStart: at(-60.012),
                                         riseTime: .milliseconds(60), heard: at(0.021)),
            SyncLoopbackTest.Measurement(cue: .pattern(path: "/tmp/door\u{1B}[2J.ahap"), onset: at(250), hapticStart: at(189.95),
                                         riseTime: .milliseconds(60), heard: at(249.9)),
            SyncLoopbackTest.Measurement(cue: .feedback(.selection), onset: at(600), hapticStart: at(546.7),
                                         riseTime: .milliseconds(60), heard: at(600.02)),
        ]
        rows[0].hapticWrite = .init(deadline: at(-60), began: at(-60.05), returned: at(-60.02), thread: "haptics-rt")
        rows[1].hapticWrite = .init(deadline: at(190), began: at(189.9), returned: at(189.94), thread: "haptics-rt")
        rows[2].hapticWrite = .init(deadline: at(540), began: at(546.6), returned: at(546.68), thread: "haptics-rt", woke: at(543.2))
        rows[2].hapticStall = .microseconds(1_250)
        var streams = SyncLoopbackTest.Streams()
        streams.firstOnset = at(0)
        streams.playback = AudioOutputStatistics(periods: 900, scheduled: 2, late: 1, maximumLateness: .microseconds(1_250),
                                                 completed: 2, underruns: 1, timingJumps: 2)
        streams.captureReads = 880
        streams.captureBufferFrames = 48_000
        streams.captureOverruns = 1
        streams.captureGaps = [ALSACaptureStream.Gap(frame: 24_000, start: at(412.5), duration: .microseconds(170_667))]
        streams.disturbances = ["2 door\u{1B}[2J.ahap: 1 playback underruns, 1 late voices, machine stalled 8.104 ms at -3.5 ms from the onset"]
        streams.stallProbe = "SCHED_FIFO 60 every 2 ms"
        streams.stalls = [SyncLoopbackTest.Stall(start: at(246.5), duration: .microseconds(8_104)),
                          SyncLoopbackTest.Stall(start: at(900), duration: .microseconds(2_500))]
        let result = SyncLoopbackTest.Result(
            measurements: rows, missing: ["3 selection: no sound onset found"], period: .nanoseconds(5_333_333), latency: .microseconds(17_400),
            hapticDevice: "haptics sync-test 42 (/dev/input/event3)", hapticTiming: "kernel receipt (uinput)", profile: .genericRumble,
            streams: streams)
        #expect(rows.map(\.residual) == [.microseconds(33), .microseconds(-50), .microseconds(-6_680)])
        #expect(SyncTestCommand.report(result, configuration: SyncLoopbackTest.Configuration()) == [
            "haptics: haptics sync-test 42 (/dev/input/event3), profile generic-rumble (rise 60 ms); start = kernel receipt (uinput)",
            "sound: hw:Loopback,0,0 captured on hw:Loopback,1,0; period 5.333 ms, output latency 17.4 ms",
            "",
            "   #  cue                   haptic start   felt (+rise)      heard   residual (ms from the cue's onset)",
            "   1  impact.heavy               -60.012         -0.012      0.021      0.033",
            "   2  door\\u{1B}[2J.ahap          -60.05          -0.05       -0.1      -0.05",
            "   3  selection                    -53.3            6.7       0.02      -6.68",
            "not found: 3 selection: no sound onset found",
            "haptic writes: began after due p50 -0.05 ms, max 6.6 ms (cue 3); the realtime thread woke after due p50 3.2 ms, max 3.2 ms (cue 3) and began writing after it woke p50 3.4 ms, max 3.4 ms (cue 3) (1 of 3 cues); start seen after the write began p50 0.05 ms, max 0.1 ms (cue 3)",
            "cue 3 selection off by more than a period: its haptic's write, due at -60 ms, began 6.6 ms after on haptics-rt, which woke 3.2 ms after it was due, and took 0.08 ms; the start was seen 0.1 ms after it began; the machine stalled 1.25 ms on its way",
            "playback: 900 periods, 1 underruns, 2 timing jumps, 1 late voices (max 1.25 ms), 0 dropped",
            "capture: 880 reads, buffer 48000 frames, 1 overruns, 0 timeouts, 1 gaps",
            "capture gap: 170.667 ms at 412.5 ms from the first cue's onset (before frame 24000)",
            "machine: 2 stalls over 0.5 ms (probe: SCHED_FIFO 60 every 2 ms), longest 8.104 ms",
            "while cue 2 door\\u{1B}[2J.ahap: 1 playback underruns, 1 late voices, machine stalled 8.104 ms at -3.5 ms from the onset",
            "",
            "|residual| over 3 cues: p50 0.05 ms, p95 6.68 ms, max 6.68 ms (one audio period: 5.333 ms)",
        ])
    }

    @Test("the haptic writes: a late cue with no stall seen says so; a trace with no write gives no lines")
    func writeLinesWithoutStall() {
        func at(_ milliseconds: Double) -> MonotonicInstant { MonotonicInstant(nanoseconds: 2_000_000_000 + Int64(milliseconds * 1e6)) }
        var row = SyncLoopbackTest.Measurement(cue: .feedback(.impact(.soft)), onset: at(0), hapticStart: at(-50),
                                               riseTime: .milliseconds(60), heard: at(0))
        var result = SyncLoopbackTest.Result(
            measurements: [row], missing: [], period: .nanoseconds(5_333_333), latency: .zero,
            hapticDevice: "pad", hapticTiming: "kernel receipt (uinput)", profile: .genericRumble)
        #expect(SyncTestCommand.writeLines(result) == [])
        row.hapticWrite = .init(deadline: at(-60), began: at(-50.2), returned: at(-50.1), thread: nil)
        result.measurements = [row]
        #expect(SyncTestCommand.writeLines(result) == [
            "haptic writes: began after due p50 9.8 ms, max 9.8 ms (cue 1); start seen after the write began p50 0.2 ms, max 0.2 ms (cue 1)",
            "cue 1 impact.soft off by more than a period: its haptic's write, due at -60 ms, began 9.8 ms after and took 0.1 ms; the start was seen 0.2 ms after it began; no machine stall seen on its way",
        ])
    }

    @Test("the write that started a haptic, and the realtime thread's last wake-up for its deadline")
    func startingWrite() {
        func at(_ microseconds: Int64) -> MonotonicInstant { MonotonicInstant(nanoseconds: 3_000_000_000 + microseconds * 1_000) }
        func record(_ event: TraceRecord.Event, channel: Int32 = 2, command: ActuatorCommand = .rumble(strong: 0x8000, weak: 0),
                    deadline: Int64, began: Int64, time: Int64, thread: Int32 = 7) -> TraceRecord {
            TraceRecord(event: event, channel: channel, player: 0, command: command, deadline: at(deadline), time: at(time),
                        began: at(began), thread: thread)
        }
        let records = [
            // Woke before the deadline (faster than its wake-ahead), then again after it.
            record(.woke, channel: -1, command: .stop, deadline: 1_000, began: 900, time: 960),
            record(.woke, channel: -1, command: .stop, deadline: 1_000, began: 1_000, time: 1_100),
            record(.woke, channel: -1, command: .stop, deadline: 1_000, began: 1_000, time: 1_150, thread: 8),
            record(.emitted, deadline: 1_000, began: 1_400, time: 1_500),
            record(.emitted, channel: 3, deadline: 1_000, began: 1_600, time: 1_700),
            record(.emitted, command: .stop, deadline: 1_700, began: 1_750, time: 1_800),
            record(.woke, channel: -1, command: .stop, deadline: 5_000, began: 4_900, time: 5_020),
            // A caller's write (its own thread, no wake-up).
            record(.emitted, deadline: 6_000, began: 6_010, time: 6_100, thread: 9),
        ]
        let trace = Trace(records: records, devices: [], lost: 0, origin: at(0), processName: "test",
                          threadNames: [7: "haptics-rt", 9: "game"])
        #expect(SyncLoopbackTest.HapticWrite(startingHapticAt: at(1_900), on: 2, in: trace)
            == .init(deadline: at(1_000), began: at(1_400), returned: at(1_500), thread: "haptics-rt", woke: at(1_100)))
        #expect(SyncLoopbackTest.HapticWrite(startingHapticAt: at(6_200), on: 2, in: trace)
            == .init(deadline: at(6_000), began: at(6_010), returned: at(6_100), thread: "game", woke: nil))
        #expect(SyncLoopbackTest.HapticWrite(startingHapticAt: at(1_300), on: 2, in: trace) == nil)
    }

    @Test("a cue's machine stall is the longest one that overlaps its window, touching ends excluded")
    func longestStallInAWindow() {
        func at(_ milliseconds: Int64) -> MonotonicInstant { MonotonicInstant(nanoseconds: 1_000_000_000 + milliseconds * 1_000_000) }
        let stalls = [SyncLoopbackTest.Stall(start: at(0), duration: .milliseconds(10)),
                      SyncLoopbackTest.Stall(start: at(20), duration: .milliseconds(3)),
                      SyncLoopbackTest.Stall(start: at(30), duration: .milliseconds(8))]
        #expect(StallProbe.longest(in: stalls, from: at(5), to: at(40)) == stalls[0])
        #expect(StallProbe.longest(in: stalls, from: at(10), to: at(30)) == stalls[1])
        #expect(StallProbe.longest(in: stalls, from: at(21), to: at(31)) == stalls[2])
        #expect(StallProbe.longest(in: stalls, from: at(23), to: at(30)) == nil)
        #expect(StallProbe.longest(in: [], from: at(0), to: at(100)) == nil)
    }

    @Test("play --audio file.wav renders the cue from the file's first frame: time 0 is the felt onset", .needsRealTimeMargins)
    func playWithSoundToWAV() throws {
        let scratch = try TemporaryFolder()
        defer { scratch.remove() }
        let folder = scratch.path
        let result = runTool("play", "impact.heavy", "--profile", "generic-rumble", "--audio", folder + "/cue.wav", "--json")
        #expect(result.status == 0)
        let summary = try #require(result.output.split(separator: "\n").last.map(String.init))
        let felt = try #require(summary.range(of: #""felt_ms":[0-9.]+"#, options: .regularExpression).map { summary[$0].dropFirst(10) })
        #expect(summary.hasSuffix(#","audio":"scheduled","heard_ms":\#(felt)}"#))
        let audio = try WAVReader.read(contentsOf: folder + "/cue.wav")
        let cue = try #require(SoundCueLibrary.builtin().voice(for: .impact(.heavy)))
        #expect(audio.frameCount == cue.frameCount)
        let samples = try #require(audio.pcm16Samples)
        let left = stride(from: 0, to: samples.count, by: 2).map { samples[$0] }
        #expect(left == (0..<cue.frameCount).map { Int16((min(max(cue.frame($0).left, -1), 1) * 32_767).rounded()) })
    }

    @Test("play --audio with a pattern file plays its AudioCustom sound; a missing WAV fails before anything plays", .needsRealTimeMargins)
    func playPatternWithSound() throws {
        let scratch = try TemporaryFolder()
        defer { scratch.remove() }
        let folder = scratch.path
        try Data(Array("""
            {"Version": 1, "Pattern": [
              {"Event": {"Time": 0.0, "EventType": "HapticTransient"}},
              {"Event": {"Time": 0.02, "EventType": "AudioCustom", "EventWaveformPath": "tick.wav"}}
            ]}
            """.utf8)).write(to: URL(fileURLWithPath: folder + "/tick.ahap"))
        let missing = runTool("play", folder + "/tick.ahap", "--device", "simulated", "--audio", folder + "/out.wav")
        #expect(missing.status == 1)
        #expect(missing.error == "haptics play: \(folder)/tick.ahap:3:77: AudioCustom event at 0.02 s: "
            + "EventWaveformPath \"tick.wav\": no such file\n")
        #expect(missing.output == "")

        let samples = (0..<48).flatMap { _ in [UInt8(0x00), UInt8(0x40)] }   // 1 ms at 16 384
        var wav = Array("RIFF".utf8) + [UInt8(36 + samples.count), 0, 0, 0] + Array("WAVEfmt ".utf8)
        wav += [16, 0, 0, 0, 1, 0, 1, 0, 0x80, 0xBB, 0, 0, 0, 0x77, 1, 0, 2, 0, 16, 0] + Array("data".utf8) + [UInt8(samples.count), 0, 0, 0] + samples
        try Data(wav).write(to: URL(fileURLWithPath: folder + "/tick.wav"))
        let played = runTool("play", folder + "/tick.ahap", "--device", "simulated", "--audio", folder + "/out.wav")
        #expect(played.status == 0)
        let left = try #require(WAVReader.read(contentsOf: folder + "/out.wav").pcm16Samples).enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        // The sound's event is at 20 ms: frame 960 of a file whose frame 0 is the pattern's onset.
        #expect(left.indices.filter { left[$0] != 0 } == Array(960..<1_008))
    }
}
