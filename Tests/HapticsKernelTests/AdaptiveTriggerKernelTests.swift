import Glibc
import Haptics
import HapticsCommandLine
import HapticsPatterns
import HapticsSystem
import HapticsTestSupport
import HapticsTriggers
import HapticsVirtualDevices
import Testing

/// Trigger effects on a virtual DualSense bound by hid-playstation, over USB and Bluetooth: what
/// reaches the pad through its hidraw node, byte for byte, checked against the public layout
/// written out by hand here (not against the encoder under test).
extension EngineKernelTests {
@Suite struct AdaptiveTriggerKernelTests {
    /// feedback:3,5: zones 3–9 (mask 0x03F8), strength 5 − 1 = 4 at bit 3z (0x24924800).
    static let feedback: [UInt8] = [0x21, 0xF8, 0x03, 0x00, 0x48, 0x92, 0x24, 0, 0, 0, 0]
    /// weapon:2,6,8: zones 2 and 6 (0x44), strength 8 − 1.
    static let weapon: [UInt8] = [0x25, 0x44, 0x00, 0x07, 0, 0, 0, 0, 0, 0, 0]
    static let off: [UInt8] = [0x05, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]

    /// A USB report 0x02 (63 bytes) with valid_flag0 `flags` and the given trigger bytes.
    static func usbReport(flags: UInt8, right: [UInt8]?, left: [UInt8]?) -> [UInt8] {
        var report = [UInt8](repeating: 0, count: 63)
        report[0] = 0x02
        report[1] = flags
        if let right { report[11..<22] = right[...] }
        if let left { report[22..<33] = left[...] }
        return report
    }

    /// A Bluetooth report 0x31 (78 bytes): sequence in the high nibble of byte 1, tag 0x10, the
    /// fields from byte 3, and `crc` (computed apart, with zlib) little-endian in the last four.
    static func bluetoothReport(sequence: UInt8, flags: UInt8, right: [UInt8]?, left: [UInt8]?, crc: [UInt8]) -> [UInt8] {
        var report = [UInt8](repeating: 0, count: 78)
        report[0] = 0x31
        report[1] = sequence << 4
        report[2] = 0x10
        report[3] = flags
        if let right { report[13..<24] = right[...] }
        if let left { report[24..<35] = left[...] }
        report[74..<78] = crc[...]
        return report
    }

    static func triggerReports(_ reports: [DualSenseOutputReport]) -> [[UInt8]] {
        reports.filter { $0.setsLeftTrigger || $0.setsRightTrigger }.map(\.bytes)
    }

    @Test func effectsSetThroughTheAPIReachTheUSBPadAndARumbleLeavesThemAlone() throws {
        let controller = try VirtualDualSense()
        defer { controller.close() }
        let node = try #require(try controller.waitForGamepadNode())
        let hidraw = try #require(try controller.waitForHidrawNode())
        #expect(try TriggerNode.locate(eventNode: node) == TriggerNode(path: hidraw, transport: .usb))

        let triggers = try AdaptiveTriggers(eventNode: node)
        try triggers.setEffects(left: .weapon(start: 2, end: 6, strength: 8), right: .feedback(zone: 3, strength: 5))
        let set = controller.waitForOutputReports { Self.triggerReports($0).count == 1 }
        #expect(Self.triggerReports(set) == [Self.usbReport(flags: 0x0C, right: Self.feedback, left: Self.weapon)])

        // The engine's rumble goes through the driver, whose reports never flag the triggers.
        let engine = HapticEngine(outputs: [try HapticEngine.evdevOutput(path: node)])
        try engine.start()
        let pad = try #require(engine.devices.first)
        #expect(pad.hasAdaptiveTriggers)
        #expect(pad.triggerTransport == .usb)
        #expect(engine.play(.impact(.heavy), on: pad).isScheduled)
        let rumbled = controller.waitForOutputReports { motorStates($0) == [[0xFF, 0xFF], [0, 0]] }
        engine.stop()
        let driverReports = rumbled.dropFirst(set.count)
        #expect(driverReports.contains { $0.setsMotors })
        #expect(driverReports.allSatisfy { !$0.setsLeftTrigger && !$0.setsRightTrigger })

        // Closing sets both triggers off.
        triggers.close()
        let closed = controller.waitForOutputReports { Self.triggerReports($0).count == 2 }
        #expect(Self.triggerReports(closed).last == Self.usbReport(flags: 0x0C, right: Self.off, left: Self.off))
    }

    @Test func theEngineSetsEffectsAtTheirInstantAndEndsThemWithItsLifetime() throws {
        let controller = try VirtualDualSense()
        defer { controller.close() }
        let node = try #require(try controller.waitForGamepadNode())
        _ = try #require(try controller.waitForHidrawNode())
        let engine = HapticEngine(outputs: [try HapticEngine.evdevOutput(path: node)])
        let pad = try #require(engine.devices.first)
        // A stopped engine sets nothing.
        #expect(try engine.setTriggerEffects(left: .off, right: nil, on: pad.id) == .notPlayed(.engineStopped))
        try engine.start()
        defer { engine.stop() }
        func triggerReports(count: Int) -> [[UInt8]] {
            Self.triggerReports(controller.waitForOutputReports { Self.triggerReports($0).count >= count })
        }

        // At an instant: the report comes after it, not before.
        let at = engine.now + .milliseconds(150)
        #expect(try engine.setTriggerEffects(left: .weapon(start: 2, end: 6, strength: 8), right: nil, on: pad.id, at: at)
            == .scheduled(feltAt: at))
        #expect(triggerReports(count: 1) == [Self.usbReport(flags: 0x08, right: nil, left: Self.weapon)])
        let timed = try #require(controller.outputReports.first { $0.setsLeftTrigger })
        #expect(timed.receivedAt >= at)

        // The application going inactive sets both off and drops the effect set for later.
        try engine.setTriggerEffects(left: nil, right: .feedback(zone: 3, strength: 5), on: pad.id, at: engine.now + .milliseconds(300))
        engine.isApplicationActive = false
        #expect(triggerReports(count: 2).last == Self.usbReport(flags: 0x0C, right: Self.off, left: Self.off))
        #expect(try engine.setTriggerEffects(left: Self.feedbackEffect(), right: nil, on: pad.id) == .notPlayed(.applicationInactive))
        SystemMonotonicClock.sleep(until: engine.now + .milliseconds(400))
        #expect(Self.triggerReports(controller.outputReports).count == 2)
        engine.isApplicationActive = true

        // Haptics switched off set them off; the engine stopping ends them.
        try engine.setTriggerEffects(left: Self.feedbackEffect(), right: nil, on: pad.id)
        #expect(triggerReports(count: 3).last == Self.usbReport(flags: 0x08, right: nil, left: Self.feedback))
        engine.isEnabled = false
        #expect(triggerReports(count: 4).last == Self.usbReport(flags: 0x0C, right: Self.off, left: Self.off))
        engine.isEnabled = true
        try engine.setTriggerEffects(left: nil, right: Self.feedbackEffect(), on: pad.id)
        #expect(triggerReports(count: 5).last == Self.usbReport(flags: 0x04, right: Self.feedback, left: nil))
        engine.stop()
        #expect(triggerReports(count: 6).last == Self.usbReport(flags: 0x0C, right: Self.off, left: Self.off))
        #expect(Self.triggerReports(controller.outputReports).count == 6)
    }

    static func feedbackEffect() throws -> TriggerEffect { try .feedback(zone: 3, strength: 5) }

    @Test func aGameThatExitsWithoutFreeingItsEngineLeavesTheTriggersOff() throws {
        let controller = try VirtualDualSense()
        defer { controller.close() }
        let node = try #require(try controller.waitForGamepadNode())
        _ = try #require(try controller.waitForHidrawNode())
        let game = try CProgram(CInterfaceKernelTests.folder + "/haptics_c_exits", arguments: [node])
        #expect(game.waitForLine("set"), "\(game.standardError)")
        #expect(game.waitForExit() == 0, "\(game.standardError)")
        // The effect, then both off as the process exits: the engine was never freed.
        #expect(Self.triggerReports(controller.waitForOutputReports { Self.triggerReports($0).count >= 2 }) == [
            Self.usbReport(flags: 0x04, right: Self.weapon, left: nil),
            Self.usbReport(flags: 0x0C, right: Self.off, left: Self.off),
        ])
    }

    @Test func theGainsSoftenTheEffectsAndAPadSwitchedOffSetsThemOff() throws {
        let controller = try VirtualDualSense()
        defer { controller.close() }
        let engine = try Self.startedEngine(on: controller)
        defer { engine.stop() }
        let pad = try #require(engine.devices.first)
        func triggerReports(count: Int) -> [[UInt8]] {
            Self.triggerReports(controller.waitForOutputReports { Self.triggerReports($0).count >= count })
        }
        // weapon:2,6,8 at the engine's gain 0.5: weapon:2,6,4 (strength − 1 = 3).
        let halved: [UInt8] = [0x25, 0x44, 0x00, 0x03, 0, 0, 0, 0, 0, 0, 0]
        engine.gain = 0.5
        try engine.setTriggerEffects(left: .weapon(start: 2, end: 6, strength: 8), right: nil, on: pad.id)
        #expect(triggerReports(count: 1) == [Self.usbReport(flags: 0x08, right: nil, left: halved)])
        // Back to full gain: the effect playing is written again, whole.
        engine.gain = 1
        #expect(triggerReports(count: 2).last == Self.usbReport(flags: 0x08, right: nil, left: Self.weapon))
        // The pad's own gain counts too, and switching the pad off sets its triggers off.
        try engine.setGain(0.5, for: pad)
        #expect(triggerReports(count: 3).last == Self.usbReport(flags: 0x08, right: nil, left: halved))
        engine.setEnabled(false, for: pad)
        #expect(triggerReports(count: 4).last == Self.usbReport(flags: 0x0C, right: Self.off, left: Self.off))
        #expect(try engine.setTriggerEffects(left: .off, right: nil, on: pad.id) == .notPlayed(.disabled))
        #expect(Self.triggerReports(controller.outputReports).count == 4)
    }

    /// A player of the AHAP text `json` on `engine`, looping or not, started now; and its onset.
    static func start(_ json: String, looping: Bool, on engine: HapticEngine) throws -> (HapticPatternPlayer, MonotonicInstant) {
        let player = try engine.makePlayer(pattern: try AHAPDecoder().decode(json, fileName: "pattern.ahap").pattern)
        player.setLooping(looping)
        let outcome = player.start()
        let onset: MonotonicInstant? = if case let .scheduled(feltAt) = outcome { feltAt } else { nil }
        return (player, try #require(onset, "not started: \(outcome)"))
    }

    /// A started engine on `controller`'s gamepad node, once its hidraw node is there too.
    static func startedEngine(on controller: VirtualDualSense) throws -> HapticEngine {
        let node = try #require(try controller.waitForGamepadNode())
        _ = try #require(try controller.waitForHidrawNode())
        let engine = HapticEngine(outputs: [try HapticEngine.evdevOutput(path: node)])
        try engine.start()
        return engine
    }

    @Test func aPatternsTriggerEffectsFollowItsTimelineAndEndWhenItStops() throws {
        let controller = try VirtualDualSense()
        defer { controller.close() }
        let engine = try Self.startedEngine(on: controller)
        defer { engine.stop() }
        // A bow drawn: the right trigger stiffens with the first pulse, lets go 200 ms later, and
        // a third change 2 s on never comes: the player is stopped before.
        let pattern = try AHAPDecoder().decode("""
            {
              "Pattern": [
                { "Event": { "Time": 0.0, "EventType": "HapticTransient" } },
                { "Event": { "Time": 0.2, "EventType": "HapticTransient" } }
              ],
              "DualSenseTriggers": [
                { "Time": 0.0, "Right": "weapon:2,6,8" },
                { "Time": 0.2, "Right": "feedback:3,5" },
                { "Time": 2.0, "Left": "feedback:3,5" }
              ]
            }
            """, fileName: "bow.ahap").pattern
        let player = try engine.makePlayer(pattern: pattern)
        let outcome = player.start()
        guard case let .scheduled(onset) = outcome else {
            Issue.record("not started: \(outcome)")
            return
        }
        let two = controller.waitForOutputReports { Self.triggerReports($0).count >= 2 }
        #expect(Self.triggerReports(two) == [
            Self.usbReport(flags: 0x04, right: Self.weapon, left: nil),
            Self.usbReport(flags: 0x04, right: Self.feedback, left: nil),
        ])
        let times = two.filter(\.setsRightTrigger).map(\.receivedAt)
        #expect(times.count == 2 && times[0] >= onset && times[1] >= onset + .milliseconds(200))
        player.stop()
        #expect(Self.triggerReports(controller.waitForOutputReports { Self.triggerReports($0).count >= 3 }).last
            == Self.usbReport(flags: 0x0C, right: Self.off, left: Self.off))
        SystemMonotonicClock.sleep(until: onset + .milliseconds(2_300))
        #expect(Self.triggerReports(controller.outputReports).count == 3)
    }


    @Test func aLoopingPatternRepeatsItsTriggerEffectsAndAPauseSetsThemOff() throws {
        let controller = try VirtualDualSense()
        defer { controller.close() }
        let engine = try Self.startedEngine(on: controller)
        defer { engine.stop() }
        // A 400 ms pass: the right trigger stiffens at its start and eases at 200 ms, every pass.
        let (player, onset) = try Self.start("""
            {
              "Pattern": [
                { "Event": { "Time": 0.0, "EventType": "HapticContinuous", "EventDuration": 0.4 } }
              ],
              "DualSenseTriggers": [
                { "Time": 0.0, "Right": "weapon:2,6,8" },
                { "Time": 0.2, "Right": "feedback:3,5" }
              ]
            }
            """, looping: true, on: engine)
        let weapon = Self.usbReport(flags: 0x04, right: Self.weapon, left: nil)
        let feedback = Self.usbReport(flags: 0x04, right: Self.feedback, left: nil)
        let five = controller.waitForOutputReports(timeout: .seconds(5)) { Self.triggerReports($0).count >= 5 }
        #expect(Self.triggerReports(five) == [weapon, feedback, weapon, feedback, weapon])
        // Each no sooner than its time on the pattern's timeline: pass n begins n × 400 ms on.
        let times = five.filter(\.setsRightTrigger).map(\.receivedAt)
        let due = [0, 200, 400, 600, 800].map { onset + .milliseconds($0) }
        #expect(times.count == 5 && zip(times, due).allSatisfy { $0 >= $1 })
        player.pause()
        let paused = controller.waitForOutputReports { Self.triggerReports($0).count >= 6 }
        #expect(Self.triggerReports(paused).last == Self.usbReport(flags: 0x0C, right: Self.off, left: Self.off))
        // Paused: no pass follows, though the loop is still on.
        let count = Self.triggerReports(controller.outputReports).count
        SystemMonotonicClock.sleep(until: SystemMonotonicClock().now() + .milliseconds(1_000))
        #expect(Self.triggerReports(controller.outputReports).count == count)
    }

    @Test func aPatternsTriggerEffectsEndWithItsHaptics() throws {
        let controller = try VirtualDualSense()
        defer { controller.close() }
        let engine = try Self.startedEngine(on: controller)
        defer { engine.stop() }
        let json = """
            {
              "Pattern": [
                { "Event": { "Time": 0.0, "EventType": "HapticContinuous", "EventDuration": 0.3 } }
              ],
              "DualSenseTriggers": [ { "Time": 0.1, "Left": "weapon:2,6,8" } ]
            }
            """
        let (player, onset) = try Self.start(json, looping: false, on: engine)
        let two = controller.waitForOutputReports(timeout: .seconds(3)) { Self.triggerReports($0).count >= 2 }
        #expect(Self.triggerReports(two) == [
            Self.usbReport(flags: 0x08, right: nil, left: Self.weapon),
            Self.usbReport(flags: 0x0C, right: Self.off, left: Self.off),
        ])
        let times = two.filter { $0.setsLeftTrigger }.map(\.receivedAt)
        #expect(times.count == 2 && times[0] >= onset + .milliseconds(100) && times[1] >= onset + .milliseconds(300))
        // Once ended, letting the player go changes nothing; started again and let go at once, it
        // stops, and its effects with it.
        SystemMonotonicClock.sleep(until: onset + .milliseconds(500))
        withExtendedLifetime(player) {}
        var again: HapticPatternPlayer? = try Self.start(json, looping: false, on: engine).0
        withExtendedLifetime(again) {}
        again = nil
        #expect(Self.triggerReports(controller.waitForOutputReports { Self.triggerReports($0).count >= 3 }).last
            == Self.usbReport(flags: 0x0C, right: Self.off, left: Self.off))
        SystemMonotonicClock.sleep(until: SystemMonotonicClock().now() + .milliseconds(500))
        #expect(Self.triggerReports(controller.outputReports).count == 3)
    }

    @Test func overBluetoothEachReportHasTheNextSequenceAndItsCRC() throws {
        let controller = try VirtualDualSense(connection: .bluetooth)
        defer { controller.close() }
        let node = try #require(try controller.waitForGamepadNode())
        let hidraw = try #require(try controller.waitForHidrawNode())
        let triggers = try AdaptiveTriggers(eventNode: node)
        #expect(triggers.node == TriggerNode(path: hidraw, transport: .bluetooth))

        try triggers.setEffects(left: .weapon(start: 2, end: 6, strength: 8), right: .feedback(zone: 3, strength: 5))
        try triggers.flush()
        controller.waitForOutputReports { Self.triggerReports($0).count == 1 }
        try triggers.setEffects(left: nil, right: .off)
        try triggers.flush()
        controller.waitForOutputReports { Self.triggerReports($0).count == 2 }
        triggers.close()
        let reports = controller.waitForOutputReports { Self.triggerReports($0).count == 3 }
        #expect(Self.triggerReports(reports) == [
            Self.bluetoothReport(sequence: 0, flags: 0x0C, right: Self.feedback, left: Self.weapon, crc: [0x69, 0x14, 0x42, 0xC0]),
            Self.bluetoothReport(sequence: 1, flags: 0x04, right: Self.off, left: nil, crc: [0xBC, 0xFD, 0xA5, 0xD0]),
            Self.bluetoothReport(sequence: 2, flags: 0x0C, right: Self.off, left: Self.off, crc: [0xB4, 0x7C, 0xFD, 0xCA]),
        ])
        #expect(reports.allSatisfy { $0.hasValidCRC == true })
    }

    @Test func theTriggersCommandWritesOneReportAndInfoShowsTheCapability() throws {
        let controller = try VirtualDualSense()
        defer { controller.close() }
        let node = try #require(try controller.waitForGamepadNode())
        let hidraw = try #require(try controller.waitForHidrawNode())

        let result = runHaptics(["triggers", node, "--left", "weapon:2,6,8", "--right", "feedback:3,5", "--json"])
        #expect(result.error == "")
        #expect(result.status == 0)
        let expected = Self.usbReport(flags: 0x0C, right: Self.feedback, left: Self.weapon)
        let hex = expected.map { ($0 < 0x10 ? "0" : "") + String($0, radix: 16) }.joined()
        #expect(result.output == #"{"schema":1,"type":"triggers","device":"\#(node)","hidraw":"\#(hidraw)","transport":"usb","left":"weapon:2,6,8","right":"feedback:3,5","report":"\#(hex)"}"# + "\n")
        let reports = controller.waitForOutputReports { Self.triggerReports($0).count == 1 }
        #expect(Self.triggerReports(reports) == [expected])

        let text = runHaptics(["triggers", node, "--right", "off"])
        #expect(text.output == "right off on \(VirtualDualSense.deviceName) (\(hidraw), USB)\n")
        let after = controller.waitForOutputReports { Self.triggerReports($0).count == 2 }
        #expect(Self.triggerReports(after).last == Self.usbReport(flags: 0x04, right: Self.off, left: nil))

        let info = runHaptics(["info", node])
        #expect(info.output.contains("triggers: adaptive, USB through \(hidraw)\n"))
        let json = runHaptics(["info", node, "--json"])
        #expect(json.output.contains(#","triggers":"usb","hidraw":"\#(hidraw)"}"#))
        // A virtual pad has no USB parent, so no sound card pairs with it: its coils are not reachable.
        #expect(json.output.contains(#","actuators":"voice-coils","hd_haptics":"usb","audio_card":null,"triggers":"usb","#))
        #expect(info.output.contains("haptics:  2 voice coils, HD haptics over USB not reachable: no sound card shares the USB device of \(node)"))
    }

    @Test func aLostPadIsReportedByTheNextCall() throws {
        let controller = try VirtualDualSense()
        defer { controller.close() }
        let node = try #require(try controller.waitForGamepadNode())
        let hidraw = try #require(try controller.waitForHidrawNode())
        let triggers = try AdaptiveTriggers(eventNode: node)
        try controller.unplug()
        var failure: TriggerDeviceError?
        _ = waitUntil {
            do throws(TriggerDeviceError) {
                try triggers.setEffects(left: .off, right: nil)
                try triggers.flush()
                return false
            } catch {
                failure = error
                return true
            }
        }
        #expect(failure == .padLost(node: hidraw, SystemCallError(call: "write", errno: .operationNotSupportedByDevice)))
        triggers.close()
    }
}
}
