import Haptics
import HapticsDevices
import HapticsPatterns
import Testing
import HapticsVirtualDevices

/// A feedbackd theme's event, played by the engine on a real driver: a virtual DualSense bound by
/// hid-playstation, through ff-memless, as the motor bytes of its output reports.
extension EngineKernelTests {
@Suite struct Feedbackd {
    /// `message-new-email` rumbles three times (750 ms in 3 periods, 100 ms pauses), at full magnitude.
    let theme = try! FeedbackdTheme(decoding: Array("""
        { "name": "kernel", "profiles": [
          { "name": "quiet", "feedbacks": [
            { "event-name": "message-new-email", "type": "VibraRumble", "duration": 750, "count": 3, "pause": 100 }
          ] },
          { "name": "silent", "feedbacks": [
            { "event-name": "message-new-email", "type": "Led", "color": "blue", "frequency": 1000 }
          ] }
        ] }
        """.utf8), file: "kernel.json")

    @Test func aThemeRumbleReachesThePadAsItsCountOfRumblesWithSilenceBetween() throws {
        let controller = try VirtualDualSense()
        defer { controller.close() }
        let node = try #require(try controller.waitForGamepadNode())
        let engine = HapticEngine(outputs: [try HapticEngine.evdevOutput(path: node)])
        try engine.start()
        defer { engine.stop() }

        // Silent plays only the LED: nothing reaches the motors.
        let silent = try engine.play(feedbackdEvent: "message-new-email", from: theme, level: .silent)
        #expect(silent.outcome.haptics == .notPlayed(.unsupported))
        #expect(silent.notHaptic.map(\.typeName) == ["Led"])

        let playback = try engine.play(feedbackdEvent: "message-new-email", from: theme, level: .full)
        #expect(playback.outcome.haptics.isScheduled)
        let expected: [[UInt8]] = [[0xFF, 0xFF], [0, 0], [0xFF, 0xFF], [0, 0], [0xFF, 0xFF], [0, 0]]
        let reports = controller.waitForOutputReports { motorStates($0) == expected }
        #expect(motorStates(reports) == expected)
    }
}
}
