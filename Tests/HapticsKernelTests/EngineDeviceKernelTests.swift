import CEvdev
import Glibc
@testable import Haptics
import HapticsDevices
import HapticsPatterns
import HapticsScheduler
import HapticsSystem
import HapticsTestSupport
import HapticsVirtualDevices
import Testing

extension EngineKernelTests {
@Suite struct Devices {
    @Test func aPlayOnOneSinkGivesItsExactEventsAndNothingOnTheOther() throws {
        let first = try UInputForceFeedbackSink(.init(name: "haptics-test pad one"))
        defer { first.close() }
        let second = try UInputForceFeedbackSink(.init(name: "haptics-test pad two"))
        defer { second.close() }
        let engine = HapticEngine(outputs: [
            try HapticEngine.evdevOutput(path: first.eventNodePath),
            try HapticEngine.evdevOutput(path: second.eventNodePath),
        ])
        try engine.start()
        defer { engine.stop() }
        let pads = engine.devices
        #expect(pads.map(\.path) == [first.eventNodePath, second.eventNodePath])
        #expect(pads.map(\.name) == ["haptics-test pad one", "haptics-test pad two"])
        #expect(pads.map(\.inputID) == [InputID(bus: 0x06, vendor: 0x1209, product: 0x0001, version: 0),
                                        InputID(bus: 0x06, vendor: 0x1209, product: 0x0001, version: 0)])
        #expect(pads[1].joystickGUIDString == JoystickGUID(id: InputID(bus: 0x06, vendor: 0x1209, product: 0x0001, version: 0),
                                                          name: "haptics-test pad two").string)
        let player2 = pads[1]

        // Starting, the engine rehearsed a play of the heavy impact and a pattern player's start on
        // each pad: the one upload they need (the impact's level at intensity 1, prepared, which
        // is also the player's level), their plays and stops written with the value the kernel
        // drops, so neither pad saw them, and the level erased again (the kernel stops an effect
        // it erases: the sink sees that stop first).
        for sink in [first, second] {
            let events = sink.waitForRecords(count: 3).map(\.event)
            guard events.count == 3, case let .upload(level, nil) = events[0] else {
                Issue.record("expected the rehearsal's upload and erase, got \(events)")
                return
            }
            #expect(level.type == UInt16(FF_RUMBLE) && level.replayLength == 260)
            #expect(level.parameters == .rumble(strongMagnitude: 65_535, weakMagnitude: 65_535))
            #expect(Array(events.dropFirst()) == [.stop(effectID: level.id), .erase(effectID: level.id)])
        }

        // The impact's level at intensity 1 first, then its other 14 steps ahead (15 of the sink's
        // 16 slots: one is kept for streaming).
        engine.prepare(.impact(.heavy), on: [player2])
        let uploads = Array(second.waitForRecords(count: 18).dropFirst(3))
        #expect(uploads.count == 15)
        #expect(uploads.allSatisfy { if case .upload(_, nil) = $0.event { true } else { false } })
        guard case let .upload(effect, _)? = uploads.first?.event else {
            Issue.record("expected uploads on pad two, got \(uploads)")
            return
        }
        #expect(engine.play(.impact(.heavy), on: player2).isScheduled)
        let events = second.waitForRecords(count: 20).dropFirst(18).map(\.event)
        #expect(events == [.play(effectID: effect.id, count: 1), .stop(effectID: effect.id)])
        // Pad one saw nothing after its rehearsal: no upload, no play.
        #expect(waitUntil(timeout: 0.5) { first.records.count > 3 } == false)
        #expect(first.records.count == 3)
    }

    @Test func aPlayOnOneDualSenseMovesItsMotorsAndNotTheOthers() throws {
        let left = try VirtualDualSense()
        defer { left.close() }
        let right = try VirtualDualSense()
        defer { right.close() }
        let leftNode = try #require(try left.waitForGamepadNode())
        let rightNode = try #require(try right.waitForGamepadNode())
        let engine = HapticEngine(outputs: [try HapticEngine.evdevOutput(path: leftNode), try HapticEngine.evdevOutput(path: rightNode)])
        try engine.start()
        defer { engine.stop() }
        let pads = engine.devices
        #expect(pads.map(\.uniqueIdentifier) == [left.uniqueIdentifier, right.uniqueIdentifier])
        // What SDL's evdev backend computes for the node: bus USB, the driver's name, 054c:0ce6.
        let id = try #require(pads[1].inputID)
        #expect(pads[1].joystickGUIDString == JoystickGUID(id: id, name: VirtualDualSense.deviceName).string)
        #expect(pads[1].joystickGUIDString?.hasPrefix("0300") == true)
        #expect(pads[1].joystickGUIDString?.dropFirst(8).hasPrefix("4c050000e60c0000") == true)

        #expect(engine.play(.impact(.heavy), on: pads[1]).isScheduled)
        let played = right.waitForOutputReports { motorStates($0) == [[0xFF, 0xFF], [0, 0]] }
        #expect(motorStates(played) == [[0xFF, 0xFF], [0, 0]])
        let others = left.waitForOutputReports(timeout: .milliseconds(300)) { motorStates($0).contains { $0 != [0, 0] } }
        #expect(!motorStates(others).contains { $0 != [0, 0] })
    }

    @Test func startingRehearsesAPlayThatNoReportCarriesAndTheFirstPlayIsWholeAfterIt() throws {
        let pad = try VirtualDualSense()
        defer { pad.close() }
        let node = try #require(try pad.waitForGamepadNode())
        let engine = HapticEngine(outputs: [try HapticEngine.evdevOutput(path: node)])
        // The reports of the driver's own set-up are over before the engine starts.
        _ = pad.waitForOutputReports(timeout: .milliseconds(300)) { _ in false }
        let before = pad.outputReports.count
        try engine.start()
        defer { engine.stop() }
        // The rehearsal's play and stop were written inside `start()` and dropped by the kernel:
        // the driver sent nothing, now or when the impact would have ended (160 ms).
        let rehearsed = pad.waitForOutputReports(timeout: .milliseconds(400)) { $0.count > before }
        #expect(rehearsed.count == before)
        // The game's first play is the whole impact, prepared or not.
        engine.prepare(.impact(.heavy))
        #expect(engine.play(.impact(.heavy)).isScheduled)
        let played = pad.waitForOutputReports { motorStates(Array($0.dropFirst(before))) == [[0xFF, 0xFF], [0, 0]] }
        #expect(motorStates(Array(played.dropFirst(before))) == [[0xFF, 0xFF], [0, 0]])
    }

    @Test func aPadAddedToTheRunningEngineRehearsesBeforeTheGamesPlaysReachIt() throws {
        let sink = try UInputForceFeedbackSink(.init(name: "haptics-test pad added later"))
        defer { sink.close() }
        let dualSense = try VirtualDualSense()
        defer { dualSense.close() }
        let node = try #require(try dualSense.waitForGamepadNode())
        _ = dualSense.waitForOutputReports(timeout: .milliseconds(300)) { _ in false }
        let before = dualSense.outputReports.count
        // The game started its engine before any pad was there.
        let engine = HapticEngine(outputs: [])
        try engine.start()
        defer { engine.stop() }
        let pad = try engine.addOutput(HapticEngine.evdevOutput(path: sink.eventNodePath))
        // Inside addOutput: the rehearsal's one upload, its plays and stops dropped by the kernel,
        // the level erased again (the kernel's stop of an erased effect first).
        let events = sink.waitForRecords(count: 3).map(\.event)
        guard events.count == 3, case let .upload(level, nil) = events[0] else {
            Issue.record("expected the rehearsal's upload and erase, got \(events)")
            return
        }
        #expect(level.parameters == .rumble(strongMagnitude: 65_535, weakMagnitude: 65_535))
        #expect(Array(events.dropFirst()) == [.stop(effectID: level.id), .erase(effectID: level.id)])
        // The game's prepared play: its own upload, then play and stop, whole.
        engine.prepare(.impact(.heavy), on: [pad])
        let uploads = Array(sink.waitForRecords(count: 18).dropFirst(3))
        guard uploads.count == 15, case let .upload(effect, nil)? = uploads.first?.event else {
            Issue.record("expected 15 uploads, got \(uploads)")
            return
        }
        #expect(engine.play(.impact(.heavy), on: pad).isScheduled)
        let triggered = sink.waitForRecords(count: 20).dropFirst(18).map(\.event)
        #expect(triggered == [.play(effectID: effect.id, count: 1), .stop(effectID: effect.id)])

        // A DualSense added the same way: its rehearsal reaches no report, the game's play does.
        let second = try engine.addOutput(HapticEngine.evdevOutput(path: node))
        let rehearsed = dualSense.waitForOutputReports(timeout: .milliseconds(400)) { $0.count > before }
        #expect(rehearsed.count == before)
        #expect(engine.play(.impact(.heavy), on: second).isScheduled)
        let played = dualSense.waitForOutputReports { motorStates(Array($0.dropFirst(before))) == [[0xFF, 0xFF], [0, 0]] }
        #expect(motorStates(Array(played.dropFirst(before))) == [[0xFF, 0xFF], [0, 0]])
    }

    /// The hidraw node of the HID device whose unique id is `uniq`, from its uevent (`HID_UNIQ=`).
    func hidrawNode(uniq: String) -> String? {
        FileDescriptor.numberedEntries(in: "/sys/class/hidraw", prefix: "hidraw").first { entry in
            guard let bytes = try? FileDescriptor.readContents(ofFile: entry + "/device/uevent", maximumSize: 4_096) else { return false }
            return String(decoding: bytes, as: UTF8.self).split(separator: "\n").contains { $0 == "HID_UNIQ=\(uniq)" }
        }.map { "/dev/" + $0.split(separator: "/").last! }
    }

    @Test func twoIdenticalDualSensesAreEachFoundByTheirHidrawAndEventNodes() throws {
        let left = try VirtualDualSense()
        defer { left.close() }
        let right = try VirtualDualSense()
        defer { right.close() }
        let nodes = [try #require(try left.waitForGamepadNode()), try #require(try right.waitForGamepadNode())]
        let engine = HapticEngine(outputs: try nodes.map { try HapticEngine.evdevOutput(path: $0) })
        try engine.start()
        defer { engine.stop() }
        let pads = engine.devices
        #expect(pads.map(\.inputID) == [pads[0].inputID, pads[0].inputID])   // identical but for their nodes
        for (pad, controller) in zip(pads, [left, right]) {
            let hidraw = try #require(hidrawNode(uniq: controller.uniqueIdentifier))
            #expect(engine.device(atPath: hidraw)?.id == pad.id)
            #expect(engine.device(atPath: try #require(pad.path))?.id == pad.id)
        }
        #expect(pads.map { $0.forceFeedbackCodes.isSuperset(of: [.rumble, .periodic, .gain]) } == [true, true])
        #expect(pads.map(\.effectSlots) == [16, 16])
    }

    @Test func fiftyUnplugReplugCyclesBringThePadBackAsItselfOnItsChannel() throws {
        let mac: [UInt8] = [0x02, 0x00, 0xAD, 0xDE, 0x5E, 0x07]
        var controller = try VirtualDualSense(macAddress: mac)
        defer { controller.close() }
        let uniq = controller.uniqueIdentifier
        _ = try #require(try controller.waitForGamepadNode())
        // Two channels: one for each profile the pad plays with (a profile change loads the new one
        // before the old one is let go). Fifty returns must not need more.
        let engine = HapticEngine(outputs: [], configuration: .init(scheduler: SchedulerConfiguration(maximumChannels: 2)))
        let log = Recorder<HapticEngine.Event>()
        engine.setEventHandler { log.append($0) }
        try engine.watchForDevices(in: "/dev/input") { path throws(DeviceError) in
            let output = try HapticEngine.evdevOutput(path: path)
            guard output.eventNode?.uniqueIdentifier == uniq else {
                (output.device as? EvdevActuator)?.close()
                throw .noForceFeedback(path: path)  // Not this test's pad.
            }
            return output
        }
        try engine.start()
        defer { engine.stop() }
        // The pad existed before the watch began: re-plug it once to have it picked up.
        try controller.unplug()
        controller.close()
        controller = try VirtualDualSense(macAddress: mac)
        try #require(waitUntil(timeout: 10) { engine.devices.first?.state == .available })
        let pad = try #require(engine.devices.first)
        try engine.setGain(0.5, for: pad)
        try engine.setProfile(named: "dualshock4", for: pad)
        let channel = try #require(engine.channel(of: pad.id))

        for cycle in 0..<50 {
            try controller.unplug()
            controller.close()
            try #require(waitUntil(timeout: 10) { engine.device(pad.id).map { !$0.state.isAvailable } ?? false }, "cycle \(cycle)")
            guard case .lost? = engine.device(pad.id)?.state else {
                Issue.record("cycle \(cycle): \(String(describing: engine.device(pad.id)))")
                return
            }
            controller = try VirtualDualSense(macAddress: mac)
            try #require(waitUntil(timeout: 10) { engine.device(pad.id)?.state == .available }, "cycle \(cycle)")
            let back = try #require(engine.device(pad.id))
            #expect(engine.devices.count == 1, "cycle \(cycle)")
            #expect(back.uniqueIdentifier == uniq && back.settings.gain == 0.5, "cycle \(cycle)")
            #expect(back.profile?.name == "dualshock4", "cycle \(cycle)")
            #expect(engine.channel(of: pad.id) == channel, "cycle \(cycle)")
        }
        // Plays on the pad after the 50th return: half gain, so the motors run at half strength.
        #expect(engine.play(.impact(.heavy), on: pad).isScheduled)
        let played = controller.waitForOutputReports { motorStates($0).contains { $0 != [0, 0] } && motorStates($0).last == [0, 0] }
        #expect(motorStates(played).contains { $0 != [0, 0] && $0.allSatisfy { $0 < 0xFF } })
        let added = log.all.filter { if case .deviceAdded = $0 { true } else { false } }.count
        let lost = log.all.filter { if case .deviceLost = $0 { true } else { false } }.count
        #expect(added == 51 && lost == 50)
    }

    @Test func aNodeWithoutPermissionIsListedWithTheFixAndAnEvent() throws {
        let sink = try UInputForceFeedbackSink(.init(name: "haptics-test denied pad", maximumEffects: 4))
        defer { sink.close() }
        let path = sink.eventNodePath
        let outcome = JoinedValue<([HapticDevice], [HapticEngine.Event], PlaybackOutcome)>()
        let ran = EvdevKernel.asUnprivilegedUser {
            let engine = HapticEngine(discovering: "/dev/input")
            let log = Recorder<HapticEngine.Event>()
            engine.setEventHandler { log.append($0) }
            engine.startManuallyDriven()
            outcome.value = (engine.devices, log.all, engine.play(.selection))
        }
        try #require(ran)
        let (devices, events, played) = try #require(outcome.value)
        let denied = try #require(devices.first { $0.path == path })
        #expect(denied.state == .unavailable(.permissionDenied(path: path)))
        #expect(denied.state.description == "unavailable: \(path): permission denied; install Tools/udev/70-haptics.rules (TAG+=\"uaccess\" for force-feedback event nodes) and re-plug the device, or add yourself to the 'input' group")
        // Named from sysfs, with the GUID SDL would give it once it can read the node.
        #expect(denied.name == "haptics-test denied pad")
        #expect(denied.joystickGUIDString == JoystickGUID(id: InputID(bus: 0x06, vendor: 0x1209, product: 0x0001, version: 0),
                                                          name: "haptics-test denied pad").string)
        #expect(events.contains(.deviceUnavailable(name: "haptics-test denied pad", path: path, error: .permissionDenied(path: path))))
        // Nothing else here is open to the unprivileged user: the engine says it fell back.
        #expect(events.last == .fallbackToSimulatedDevice)
        #expect(devices.filter(\.isSimulatedFallback).count == 1)
        #expect(played == .notPlayed(.noRealDevice))
    }
}
}
