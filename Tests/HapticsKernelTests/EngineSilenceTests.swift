import Haptics
import HapticsDevices
import HapticsPatterns
import Testing
import HapticsVirtualDevices

/// Nothing keeps rumbling: each way of ending playback leaves the DualSense's motors at zero on
/// the wire (the last motor report has bytes 3 and 4 = 0).
extension EngineKernelTests {
@Suite struct Silence {
    enum Ending {
        case engineStop, playerStop, engineDeinit, applicationInactive
    }

    // One test per ending (not one parameterized test): the testbench counts whole tests.
    @Test func engineStopLeavesTheMotorsAtZero() throws { try endPlayback(.engineStop) }
    @Test func playerStopLeavesTheMotorsAtZero() throws { try endPlayback(.playerStop) }
    @Test func engineDeinitLeavesTheMotorsAtZero() throws { try endPlayback(.engineDeinit) }
    @Test func applicationInactiveLeavesTheMotorsAtZero() throws { try endPlayback(.applicationInactive) }

    func endPlayback(_ ending: Ending) throws {
        let controller = try VirtualDualSense()
        defer { controller.close() }
        let node = try #require(try controller.waitForGamepadNode())
        var engine: HapticEngine? = HapticEngine(outputs: [try HapticEngine.evdevOutput(path: node)])
        try engine?.start()
        var player: HapticPatternPlayer? = try engine?.makePlayer(pattern: sustainedPattern())
        player?.prepare()
        #expect(player?.start().isScheduled == true)
        #expect(!controller.waitForOutputReports { motorStates($0).last == [0xFF, 0xFF] }.isEmpty)

        switch ending {
        case .engineStop:
            engine?.stop()
        case .playerStop:
            #expect(player?.stop() == true)
        case .engineDeinit:
            // The player keeps its engine alive; the engine alone going away must silence.
            player = nil
            engine = nil
        case .applicationInactive:
            engine?.isApplicationActive = false
        }

        let reports = controller.waitForOutputReports { motorStates($0).last == [0, 0] }
        #expect(motorStates(reports) == [[0xFF, 0xFF], [0, 0]])
        let last = try #require(reports.last { $0.setsMotors })
        #expect(last.bytes[3] == 0)
        #expect(last.bytes[4] == 0)
        withExtendedLifetime(player) {}
        engine?.stop()
    }

    @Test func halfGainHalvesTheMotorBytes() throws {
        let controller = try VirtualDualSense()
        defer { controller.close() }
        let node = try #require(try controller.waitForGamepadNode())
        let engine = HapticEngine(outputs: [try HapticEngine.evdevOutput(path: node)])
        try engine.start()
        defer { engine.stop() }
        engine.prepare(.impact(.heavy))

        #expect(engine.play(.impact(.heavy)).isScheduled)
        let full = controller.waitForOutputReports { motorStates($0) == [[0xFF, 0xFF], [0, 0]] }
        #expect(motorStates(full) == [[0xFF, 0xFF], [0, 0]])

        // FF_GAIN 0x7FFF: ff-memless scales 0xFFFF to 0x7FFF, and the driver sends magnitude / 256.
        engine.gain = 0.5
        #expect(engine.play(.impact(.heavy)).isScheduled)
        let half = controller.waitForOutputReports { motorStates($0) == [[0xFF, 0xFF], [0, 0], [0x7F, 0x7F], [0, 0]] }
        #expect(motorStates(half) == [[0xFF, 0xFF], [0, 0], [0x7F, 0x7F], [0, 0]])
    }
}
}
