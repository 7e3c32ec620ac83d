import Haptics
import HapticsExampleGame
import HapticsVirtualDevices
import Testing

/// The example game loop (Examples/GameLoop) on two virtual DualSense pads bound by the kernel's
/// hid-playstation driver: each player's haptics reach that player's pad only.
@Suite("The example game on two DualSense pads", .requiresKernelTestbench, .serialized)
struct ExampleGameKernelTests {
    @Test func eachPlayerFeelsTheirOwnPadAndBothEndSilent() throws {
        let one = try VirtualDualSense()
        defer { one.close() }
        let two = try VirtualDualSense()
        defer { two.close() }
        let oneNode = try #require(try one.waitForGamepadNode())
        let twoNode = try #require(try two.waitForGamepadNode())
        let engine = HapticEngine(outputs: [try HapticEngine.evdevOutput(path: oneNode), try HapticEngine.evdevOutput(path: twoNode)])
        try engine.start()
        defer { engine.stop() }
        let game = try ExampleGame(engine: engine)
        #expect(game.player1.path == oneNode && game.player2.path == twoNode)
        game.run()
        #expect(game.log == [
            "frame 0: menu: focus moves: played",
            "frame 20: menu: game starts: played",
            "frame 30: player 1 presses the accelerator: hum starts: played",
            "frame 30: player 1's accelerator stiffens: set",
            "frame 90: player 2 is hit: rumble 150 ms: played",
            "frame 120: player 2 is hit again: played",
            "frame 150: player 1 lets go: hum stops",
            "frame 150: player 1's accelerator eases: set",
            "frame 170: game over: player 1 wins: played",
            "frame 170: game over: player 2 loses: played",
        ])
        // Let the last notifications end, then read every report each pad received.
        let first = motorStates(one.waitForOutputReports(timeout: .milliseconds(800)) { _ in false })
        let second = motorStates(two.waitForOutputReports(timeout: .milliseconds(200)) { _ in false })
        // The hit rumble, low 1 and high 0.4: [weak 0x66, strong 0xFF] on player 2's pad alone.
        #expect(second.contains([0x66, 0xFF]))
        #expect(!first.contains([0x66, 0xFF]))
        // The hum ramps through levels on player 1's pad that player 2's pad never shows.
        let humOnly = Set(first).subtracting(second).subtracting([[0, 0]])
        #expect(humOnly.count >= 5, "player 1's states: \(first)")
        // Nothing keeps rumbling.
        #expect(first.last == [0, 0])
        #expect(second.last == [0, 0])
        // Player 1's right trigger: feedback from zone 2 at strength 4 (mask 0x03FC, 3 at bit 3z:
        // 0x1B6DB6C0, right-trigger bit only), then both off when the player lets go and again as
        // the game ends. Player 2's pad is never sent a trigger effect.
        var spring = [UInt8](repeating: 0, count: 63)
        spring[0] = 0x02
        spring[1] = 0x04
        spring[11..<22] = [0x21, 0xFC, 0x03, 0xC0, 0xB6, 0x6D, 0x1B, 0, 0, 0, 0]
        var off = [UInt8](repeating: 0, count: 63)
        off[0] = 0x02
        off[1] = 0x0C
        off[11] = 0x05
        off[22] = 0x05
        #expect(one.outputReports.filter { $0.setsLeftTrigger || $0.setsRightTrigger }.map(\.bytes) == [spring, off, off])
        #expect(two.outputReports.allSatisfy { !$0.setsLeftTrigger && !$0.setsRightTrigger })
    }
}
