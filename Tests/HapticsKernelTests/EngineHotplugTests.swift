import Haptics
import HapticsDevices
import HapticsPatterns
import Testing
import HapticsVirtualDevices
import HapticsTestSupport

extension EngineKernelTests {
@Suite struct Hotplug {
    @Test func unplugMidPatternReportsTheLossTheSinkPlaysOnAndAReplugIsPickedUp() throws {
        let sink = try UInputForceFeedbackSink(.init(name: "haptics-test engine sink"))
        defer { sink.close() }
        let controller = try VirtualDualSense()
        defer { controller.close() }
        let node = try #require(try controller.waitForGamepadNode())

        let engine = HapticEngine(outputs: [
            try HapticEngine.evdevOutput(path: sink.eventNodePath),
            try HapticEngine.evdevOutput(path: node),
        ])
        let log = Recorder<HapticEngine.Event>()
        engine.setEventHandler { log.append($0) }
        // Suites of other files may plug devices in meanwhile: this engine opens only the two
        // controllers of this test (matched by the MAC address they report as uniq).
        let replugMAC: [UInt8] = [0x01, 0x00, 0xAD, 0xDE, 0x5E, 0x06]
        let ours = Set([controller.uniqueIdentifier, "06:5e:de:ad:00:01"])
        try engine.watchForDevices(in: "/dev/input") { path throws(DeviceError) in
            let output = try HapticEngine.evdevOutput(path: path)
            guard let actuator = output.device as? EvdevActuator, ours.contains(actuator.device.info.uniqueIdentifier) else {
                (output.device as? EvdevActuator)?.close()
                throw .noForceFeedback(path: path)  // Not one of this test's devices.
            }
            return output
        }
        try engine.start()
        defer { engine.stop() }
        #expect(engine.profiles.map(\.name) == ["generic-rumble", "dualsense"])

        // A long pattern plays on both devices; the controller is unplugged in the middle of it.
        let player = try engine.makePlayer(pattern: sustainedPattern())
        player.prepare()
        #expect(player.start().isScheduled)
        #expect(!controller.waitForOutputReports { motorStates($0).last == [0xFF, 0xFF] }.isEmpty)
        try controller.unplug()

        try #require(waitUntil { !log.all.isEmpty })
        guard case let .deviceLost(name, path, error)? = log.all.first, case let .deviceLost(errorPath, failure) = error else {
            Issue.record("expected a deviceLost event, got \(log.all)")
            return
        }
        #expect(name == VirtualDualSense.deviceName)
        #expect(path == node)
        #expect(errorPath == node)
        #expect(failure.errno == .operationNotSupportedByDevice)
        #expect(engine.outputs.map(\.path) == [sink.eventNodePath])

        // The sink is unaffected: a prepared feedback after the loss is one play and its stop.
        #expect(player.stop())
        #expect(waitUntil { sink.records.last.map { if case .stop = $0.event { true } else { false } } ?? false })
        engine.prepare(.impact(.heavy))
        let before = sink.records.count
        #expect(engine.play(.impact(.heavy)).isScheduled)
        let after = Array(sink.waitForRecords(count: before + 2).dropFirst(before).map(\.event))
        guard case let .play(effectID, count)? = after.first else {
            Issue.record("expected a play on the sink, got \(after)")
            return
        }
        #expect(count == 1)
        #expect(after.dropFirst().first == .stop(effectID: effectID))
        #expect(!after.contains { if case .upload = $0 { true } else { false } })

        // Re-plug: a new controller is picked up through hotplug and plays.
        let replugged = try VirtualDualSense(macAddress: replugMAC)
        #expect(replugged.uniqueIdentifier == "06:5e:de:ad:00:01")
        defer { replugged.close() }
        let newNode = try #require(try replugged.waitForGamepadNode())
        try #require(waitUntil { log.all.contains(.deviceAdded(name: VirtualDualSense.deviceName, path: newNode)) })
        #expect(log.all.count == 2)
        #expect(engine.outputs.map(\.path) == [sink.eventNodePath, newNode])
        #expect(engine.play(.impact(.heavy)).isScheduled)
        let played = replugged.waitForOutputReports { motorStates($0) == [[0xFF, 0xFF], [0, 0]] }
        #expect(motorStates(played) == [[0xFF, 0xFF], [0, 0]])
    }
}
}
