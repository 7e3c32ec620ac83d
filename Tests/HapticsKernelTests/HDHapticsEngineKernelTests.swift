import Glibc
import Haptics
import HapticsPatterns
import HapticsSystem
import HapticsTestSupport
import HapticsTriggers
import HapticsVirtualDevices
import HapticsVoiceCoils
import Synchronization
import Testing

/// HD haptics through the engine's own calls: a pattern player on a virtual DualSense over
/// Bluetooth plays as 0x32 reports (the pattern's waveform, byte for byte), never as rumble — from
/// Swift and from a C game, with the same calls a rumble pad takes.
extension EngineKernelTests {
@Suite struct HDHapticsEngineKernelTests {
    static let pattern = HDHapticsKernelTests.pattern
    /// `pattern` as AHAP text.
    static let ahap = """
        {"Version": 1, "Pattern": [
          {"Event": {"Time": 0, "EventType": "HapticTransient", "EventParameters": [
            {"ParameterID": "HapticIntensity", "ParameterValue": 1}, {"ParameterID": "HapticSharpness", "ParameterValue": 0}]}},
          {"Event": {"Time": 0.15, "EventType": "HapticTransient", "EventParameters": [
            {"ParameterID": "HapticIntensity", "ParameterValue": 1}, {"ParameterID": "HapticSharpness", "ParameterValue": 1}]}}
        ]}
        """
    /// The report that takes the pad out of rumble emulation.
    static let clear = DualSenseTriggerReport(transport: .bluetooth, left: nil, right: nil).bytes

    /// What `reports` reports of the pattern carry: its frames at 3 kHz, repeating every
    /// `loopFrames` when set, as signed 8-bit stereo.
    static func expectedFrames(reports: Int, loopFrames: Int? = nil, gain: Float = 1) -> [Int8] {
        let samples = HDHapticsKernelTests.rendered(pattern, sampleRate: 3_000)
        let wave = (0..<(32 * reports)).map { frame -> Float in
            let position = loopFrames.map { frame % $0 } ?? frame
            return position < samples.count ? samples[position] * gain : 0
        }
        var frames = [Int8](repeating: 0, count: 64 * reports)
        wave.withUnsafeBufferPointer { wave in
            frames.withUnsafeMutableBufferPointer { VoiceCoilFrames.bluetoothFrames(wave.baseAddress!, count: 32 * reports, into: $0.baseAddress!) }
        }
        return frames
    }

    /// How many reports the pattern takes once.
    static var reportCount: Int { (HDHapticsKernelTests.rendered(pattern, sampleRate: 3_000).count + 31) / 32 }

    static func hapticsReports(_ reports: some Sequence<DualSenseOutputReport>) -> [DualSenseOutputReport] {
        reports.filter(\.isHapticsReport)
    }

    /// Waits until `completions` holds `count` entries (at most 3 s).
    static func waitFor(_ count: Int, in completions: borrowing Mutex<[PlayerCompletion]>) -> [PlayerCompletion] {
        let deadline = MonotonicInstant.now + .seconds(3)
        while completions.withLock({ $0.count }) < count && .now < deadline {
            SystemMonotonicClock.sleep(until: .now + .milliseconds(10))
        }
        return completions.withLock { $0 }
    }

    @Test func aPatternPlayerPlaysTheWaveformOnABluetoothDualSenseAndNoRumble() throws {
        let controller = try VirtualDualSense(connection: .bluetooth)
        defer { controller.close() }
        let engine = try AdaptiveTriggerKernelTests.startedEngine(on: controller)
        defer { engine.stop() }
        let pad = try #require(engine.devices.first)
        #expect(pad.hasVoiceCoils)
        let player = try engine.makePlayer(pattern: Self.pattern)
        let completions = Mutex<[PlayerCompletion]>([])
        player.completionHandler = { completion in completions.withLock { $0.append(completion) } }
        player.prepare()
        #expect(engine.playsHDHaptics(on: pad), "voice coils not open: \(String(describing: engine.hdHapticsFailure(on: pad)))")

        let before = controller.outputReports.count
        let outcome = player.start(feltAt: .now + .milliseconds(100))
        guard case .scheduled(let onset) = outcome else {
            Issue.record("not started: \(outcome)")
            return
        }
        let count = Self.reportCount
        let received = controller.waitForOutputReports { Self.hapticsReports($0.dropFirst(before)).count >= count }
        let ours = Array(received.dropFirst(before))
        let haptics = Self.hapticsReports(ours)
        try #require(haptics.count >= count)
        #expect(haptics.prefix(count).flatMap(\.hapticsFrames) == Self.expectedFrames(reports: count))
        #expect(haptics.allSatisfy { $0.hasValidCRC == true })
        #expect(haptics[0].receivedAt >= onset, "the first report came \(onset.nanoseconds - haptics[0].receivedAt.nanoseconds) ns before the onset")
        print("hd-engine: first report \(Double(haptics[0].receivedAt.nanoseconds - onset.nanoseconds) / 1e6) ms after the onset")
        // Not one rumble report: besides the waveform, only the report clearing rumble emulation.
        #expect(ours.filter { !$0.isHapticsReport }.allSatisfy { $0.bytes == Self.clear }, "\(ours.filter { !$0.isHapticsReport }.map(\.bytes))")
        #expect(!ours.contains { $0.setsMotors })
        // The player's lifecycle is the timeline's: it finishes, and nothing follows.
        #expect(Self.waitFor(1, in: completions) == [PlayerCompletion.finished])
        #expect(!player.isPlaying)
        SystemMonotonicClock.sleep(until: .now + .milliseconds(200))
        #expect(Self.hapticsReports(controller.outputReports.dropFirst(before)).count == count)
    }

    @Test func aLoopingPlayerRepeatsOnTheVoiceCoilsUntilItStopsAndRumbleIsAChoicePerPlayer() throws {
        let controller = try VirtualDualSense(connection: .bluetooth)
        defer { controller.close() }
        let engine = try AdaptiveTriggerKernelTests.startedEngine(on: controller)
        defer { engine.stop() }
        let player = try engine.makePlayer(pattern: Self.pattern)
        let completions = Mutex<[PlayerCompletion]>([])
        player.completionHandler = { completion in completions.withLock { $0.append(completion) } }
        player.prepare()
        player.setLooping(true)
        // The scheduler wraps at the program's duration.
        let length = try #require(player.programs.last?.durationNanoseconds)
        let loopFrames = Int((Double(length) * 3_000 / 1e9).rounded())

        let before = controller.outputReports.count
        player.start()
        // Three passes and a bit, then a stop: the waveform repeats every loop length exactly.
        let passes = (3 * loopFrames + 31) / 32
        let looped = Self.hapticsReports(controller.waitForOutputReports(timeout: .seconds(10)) {
            Self.hapticsReports($0.dropFirst(before)).count >= passes
        }.dropFirst(before))
        player.stop()
        try #require(looped.count >= passes)
        #expect(looped.prefix(passes).flatMap { $0.hapticsFrames } == Self.expectedFrames(reports: passes, loopFrames: loopFrames))
        #expect(Self.waitFor(1, in: completions) == [PlayerCompletion.stopped])
        // At most the report being written when the stop came follows it.
        let afterStop = Self.hapticsReports(controller.outputReports.dropFirst(before)).count
        SystemMonotonicClock.sleep(until: .now + .milliseconds(300))
        let settled = Self.hapticsReports(controller.outputReports.dropFirst(before)).count
        #expect(settled <= afterStop + 1, "\(settled - afterStop) reports after the stop")
        print("hd-engine: loop of \(loopFrames) frames, \(looped.count) reports before the stop, \(settled - afterStop) after")

        // The same player asked for rumble: the pad's rumble emulation, no waveform.
        player.usesHDHaptics = false
        player.setLooping(false)
        let rumbleFrom = controller.outputReports.count
        player.start()
        let rumble = Array(controller.waitForOutputReports { $0.dropFirst(rumbleFrom).contains { $0.setsMotors } }.dropFirst(rumbleFrom))
        #expect(rumble.contains { $0.setsMotors })
        #expect(Self.hapticsReports(rumble).isEmpty)

        // Back to HD haptics after that rumble: the pad is taken out of rumble emulation first.
        let ended = Self.waitFor(2, in: completions)
        #expect(ended == [PlayerCompletion.stopped, .finished], "the rumble start did not end: \(ended)")
        player.usesHDHaptics = true
        let back = controller.outputReports.count
        player.start()
        let again = Array(controller.waitForOutputReports { Self.hapticsReports($0.dropFirst(back)).count >= 1 }.dropFirst(back))
        let firstHaptics = try #require(again.firstIndex { $0.isHapticsReport })
        #expect(again[..<firstHaptics].contains { $0.bytes == Self.clear }, "no clearing report before the waveform")
    }

    @Test func theGainsScaleTheWaveformAndTheIntensityControlFollowsAtItsInstant() throws {
        let controller = try VirtualDualSense(connection: .bluetooth)
        defer { controller.close() }
        let engine = try AdaptiveTriggerKernelTests.startedEngine(on: controller)
        defer { engine.stop() }
        let pad = try #require(engine.devices.first)
        engine.gain = 0.5
        let player = try engine.makePlayer(pattern: Self.pattern)
        player.prepare()
        let before = controller.outputReports.count
        let count = Self.reportCount
        player.start()
        let halved = Self.hapticsReports(controller.waitForOutputReports { Self.hapticsReports($0.dropFirst(before)).count >= count }.dropFirst(before))
        #expect(halved.prefix(count).flatMap { $0.hapticsFrames } == Self.expectedFrames(reports: count, gain: 0.5))

        // The pad's own gain multiplies; the intensity control at an instant mutes what follows it.
        // After the first start has ended: a loop switched on while it still ran would loop it.
        let deadline = MonotonicInstant.now + .seconds(2)
        while player.isPlaying && .now < deadline { SystemMonotonicClock.sleep(until: .now + .milliseconds(10)) }
        #expect(!player.isPlaying)
        engine.gain = 1
        try engine.setGain(0.5, for: pad)
        player.setLooping(true)
        let next = controller.outputReports.count
        guard case .scheduled(let onset) = player.start() else {
            Issue.record("not started")
            return
        }
        // Muted from the start of report 30 of this start on.
        try player.send(.hapticIntensityControl, value: 0, at: onset + .nanoseconds(30 * DualSenseHapticsReport.periodNanoseconds))
        let looped = Self.hapticsReports(controller.waitForOutputReports { Self.hapticsReports($0.dropFirst(next)).count >= 40 }.dropFirst(next))
        player.stop()
        let length = try #require(player.programs.last?.durationNanoseconds)
        let loopFrames = Int((Double(length) * 3_000 / 1e9).rounded())
        let expected = Self.expectedFrames(reports: 30, loopFrames: loopFrames, gain: 0.5)
        #expect(looped.prefix(30).flatMap { $0.hapticsFrames } == expected)
        #expect(looped.dropFirst(30).prefix(10).allSatisfy { $0.hapticsFrames.allSatisfy { $0 == 0 } })
    }

    @Test func aLiveSoundFeedDrivesABluetoothDualSensesVoiceCoilsWithTheSoundItself() throws {
        let controller = try VirtualDualSense(connection: .bluetooth)
        defer { controller.close() }
        let engine = try AdaptiveTriggerKernelTests.startedEngine(on: controller)
        defer { engine.stop() }
        let pad = try #require(engine.devices.first)
        let feed = try engine.makeLiveSoundFeed(sampleRate: 48_000, channelCount: 1)
        #expect(feed.voiceCoilDevices == [pad.id])

        // 100 ms of a 150 Hz tone at −6 dBFS, heard 100 ms from now, fed in blocks of 256 frames.
        let tone = (0..<4_800).map { Float(0.5 * sin(2 * Double.pi * 150 * Double($0) / 48_000)) }
        let before = controller.outputReports.count
        let heardAt = MonotonicInstant.now + .milliseconds(100)
        for start in stride(from: 0, to: tone.count, by: 256) {
            let end = min(start + 256, tone.count)
            let outcome = tone[start..<end].withUnsafeBufferPointer {
                feed.feed($0, presentationTime: heardAt + .nanoseconds(Int64(start) * 1_000_000_000 / 48_000))
            }
            #expect(outcome == .scheduled(feltAt: heardAt + .nanoseconds(Int64(start) * 1_000_000_000 / 48_000)))
        }
        SystemMonotonicClock.sleep(until: heardAt + .milliseconds(300))
        let ours = Array(controller.outputReports.dropFirst(before))
        #expect(!ours.contains { $0.setsMotors }, "the pad got rumble")
        let frames = Self.hapticsReports(ours).flatMap { $0.hapticsFrames }

        // The same sound through a shaper of its own, quantized as the pad takes it.
        var shaper = try VoiceCoilShaper(sampleRate: 48_000, channelCount: 1, outputRate: 3_000)
        var shaped = [Float](repeating: 0, count: 400)
        let count = tone.withUnsafeBufferPointer { input in shaped.withUnsafeMutableBufferPointer { shaper.process(input, into: $0) } }
        var expected = [Int8](repeating: 0, count: 2 * count)
        shaped.withUnsafeBufferPointer { wave in
            expected.withUnsafeMutableBufferPointer { VoiceCoilFrames.bluetoothFrames(wave.baseAddress!, count: count, into: $0.baseAddress!) }
        }
        let firstHeard = try #require(frames.firstIndex { $0 != 0 }, "no drive reached the pad")
        let firstExpected = try #require(expected.firstIndex { $0 != 0 })
        let length = min(frames.count - firstHeard, expected.count - firstExpected, 400)
        #expect(length >= 400)
        #expect(Array(frames[firstHeard..<(firstHeard + length)]) == Array(expected[firstExpected..<(firstExpected + length)]))
        // The report carrying the first drive frame comes as its sound is heard, within two reports.
        let carrying = Self.hapticsReports(ours)[firstHeard / 64]
        let offset = carrying.receivedAt.nanoseconds - heardAt.nanoseconds
        #expect(abs(offset) < 2 * DualSenseHapticsReport.periodNanoseconds, "the drive came \(Double(offset) / 1e6) ms from its sound")
        print("hd-engine-live: \(Self.hapticsReports(ours).count) reports, the first drive \(Double(offset) / 1e6) ms from its sound")
    }

    @Test func aSharpnessSentForLaterChangesTheToneThenAndTheWaveformGoesOnUntilThen() throws {
        let controller = try VirtualDualSense(connection: .bluetooth)
        defer { controller.close() }
        let engine = try AdaptiveTriggerKernelTests.startedEngine(on: controller)
        defer { engine.stop() }
        // 0.4 s of a tone at sharpness 0 (80 Hz); the sharpness control 1 from 0.2 s on (300 Hz).
        let player = try engine.makePlayer(pattern: Pattern(events: [
            PatternEvent(kind: .hapticContinuous, time: 0, duration: 0.4, parameters: EventParameters(hapticIntensity: 1, hapticSharpness: 0)),
        ]))
        player.prepare()
        let before = controller.outputReports.count
        guard case .scheduled(let onset) = player.start(feltAt: .now + .milliseconds(50)) else {
            Issue.record("not started")
            return
        }
        try player.send(.hapticSharpnessControl, value: 1, at: onset + .milliseconds(200))
        SystemMonotonicClock.sleep(until: onset + .milliseconds(600))
        let reports = Self.hapticsReports(controller.outputReports.dropFirst(before))
        // The left actuator's samples, from the first report (written at the onset).
        let left = reports.flatMap { report in stride(from: 0, to: 64, by: 2).map { Float(report.hapticsFrames[$0]) } }
        try #require(left.count >= 3 * 350)
        func frequency(_ range: Range<Int>) -> Double? { HDHapticsKernelTests.frequency(left[range], sampleRate: 3_000) }
        let before150 = try #require(frequency(30..<540))
        let after250 = try #require(frequency(750..<1_140))
        print("hd-engine-sharpness: \(before150) Hz before, \(after250) Hz after")
        #expect(abs(before150 - 80) < 4, "\(before150) Hz before the change")
        #expect(abs(after250 - 300) < 12, "\(after250) Hz after the change")
        // No gap while the change was waiting: the tone sounds through 190…200 ms.
        #expect(left[570..<600].contains { $0 != 0 })
    }

    /// Runs `body` with a virtual DualSense on Bluetooth (its gamepad node, its hidraw node there)
    /// and ``pattern`` written as an AHAP file.
    static func withPatternFileOnABluetoothPad(
        _ body: (_ controller: VirtualDualSense, _ node: String, _ file: String) throws -> Void
    ) throws {
        let controller = try VirtualDualSense(connection: .bluetooth)
        defer { controller.close() }
        let node = try #require(try controller.waitForGamepadNode())
        _ = try #require(try controller.waitForHidrawNode())
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(Self.ahap, to: "hits.ahap")
        try body(controller, node, folder.path + "/hits.ahap")
    }

    @Test func aCGamePlaysAPatternFileAsHDHapticsWithThePlayerCalls() throws {
        try Self.withPatternFileOnABluetoothPad { controller, node, file in
            let before = controller.outputReports.count
            let game = try CProgram(CInterfaceKernelTests.folder + "/haptics_c_hd", arguments: [node, file])
            #expect(game.waitForLine("hd 1"), "\(game.standardOutput) \(game.standardError)")
            #expect(game.waitForLine("finished"), "\(game.standardOutput) \(game.standardError)")
            #expect(game.waitForExit() == 0, "\(game.standardError)")
            let count = Self.reportCount
            let ours = Array(controller.waitForOutputReports { Self.hapticsReports($0.dropFirst(before)).count >= count }.dropFirst(before))
            let haptics = Self.hapticsReports(ours)
            #expect(haptics.count == count)
            #expect(haptics.prefix(count).flatMap(\.hapticsFrames) == Self.expectedFrames(reports: count))
            #expect(!ours.contains { $0.setsMotors })
        }
    }

    @Test func theCLIPlaysAPatternFileAsHDHapticsOnADualSenseAndAsRumbleWhenAsked() throws {
        try Self.withPatternFileOnABluetoothPad { controller, node, file in
            let played = runHaptics(["play", file, "--device", node])
            #expect(played.status == 0, "\(played.error)")
            #expect(played.output.hasPrefix("\(file) on \(VirtualDualSense.deviceName) (\(node)), profile dualsense, as HD haptics\n"), "\(played.output)")
            let count = Self.reportCount
            let reports = controller.waitForOutputReports { Self.hapticsReports($0).count >= count }
            #expect(Self.hapticsReports(reports).prefix(count).flatMap { $0.hapticsFrames } == Self.expectedFrames(reports: count))
            #expect(!reports.contains { $0.setsMotors })

            let before = controller.outputReports.count
            let json = runHaptics(["play", file, "--device", node, "--rumble", "--json"])
            #expect(json.status == 0, "\(json.error)")
            #expect(json.output.contains(#","hd_haptics":false"#), "\(json.output)")
            let rumble = Array(controller.waitForOutputReports { $0.dropFirst(before).contains { $0.setsMotors } }.dropFirst(before))
            #expect(rumble.contains { $0.setsMotors })
            #expect(Self.hapticsReports(rumble).isEmpty)
            #expect(runHaptics(["play", file, "--hd", "--rumble"]).error.contains("--hd and --rumble exclude each other"))
        }
    }
}
}
