// The smallest program a game would write: one engine, one pattern, one play. `Tools/bench size`
// builds it with the Swift runtime linked statically and reports its stripped size, beside the same
// build of a hello-world, to show what linking the engine costs (and that no ICU data comes along).
import Haptics

let engine = HapticEngine(outputs: [.simulated(.genericRumble)])
do {
    try engine.start()
    let pattern = try decodePattern(contentsOf: CommandLine.arguments.dropFirst().first ?? "Patterns/impact-heavy.ahap").pattern
    let player = try engine.makePlayer(pattern: pattern)
    player.start()
    try player.send(.hapticIntensityControl, value: 0.5)
    let outcome = engine.play(.notification(.success))
    if case let .notPlayed(reason) = outcome { print("not played: \(reason)") }
    player.stop()
    engine.stop()
} catch {
    print("error: \(error)")
}
