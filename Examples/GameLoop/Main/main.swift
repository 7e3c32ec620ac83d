// The example game on two simulated pads: `swift run haptics-example-game`.
// It prints what each frame's events did, then what each pad felt.
import Glibc
import Haptics
import HapticsExampleGame

let pads: [HapticEngine.Output] = [.simulated(.dualSense), .simulated(.xboxController)]
let engine = HapticEngine(outputs: pads)
do {
    try engine.start()
    let game = try ExampleGame(engine: engine)
    game.run()
    engine.stop()
    for line in game.log { print(line) }
    for (output, pad) in zip(pads, ["player 1", "player 2"]) {
        let commands = (output.device as? SimulatedDevice)?.recording() ?? []
        let busy = commands.filter { !$0.command.isSilent }.count
        print("\(pad) (\(output.name)): \(commands.count) commands, \(busy) of them levels, ending with \(commands.last?.command.isSilent == true ? "silence" : "a level")")
    }
} catch {
    print("example game: \(error)")
    exit(1)
}
