import Foundation
import Haptics
import HapticsDevices
import HapticsRendering
import HapticsScheduler

/// One play on a real evdev device through the engine: prepared first (effects uploaded), then
/// played in real time, then the engine stopped (the device ends silent).
struct DeviceRun {
    /// What the engine said.
    let outcome: PlaybackOutcome
    /// When the play was requested.
    let requestedAt: MonotonicInstant
    /// The device played on.
    let output: HapticEngine.Output

    static func play(_ target: PlayTarget, path: String) throws(CommandLineError) -> DeviceRun {
        let output: HapticEngine.Output
        do {
            output = try HapticEngine.evdevOutput(path: path)
        } catch {
            throw .failure(error.description)
        }
        let engine = HapticEngine(outputs: [output])
        do {
            try engine.start()
        } catch {
            throw .failure("cannot start the engine: \(error)")
        }
        var player: HapticPatternPlayer?
        let length: Int64
        switch target {
        case let .feedback(feedback):
            engine.prepare(feedback)
            length = Renderer(profile: output.profile).render(feedback.canonicalPattern).duration
        case let .file(path, pattern, _):
            do {
                player = try engine.makePlayer(pattern: pattern)
            } catch {
                throw .failure("\(path): cannot load the pattern: \(error)")
            }
            player?.prepare()
            length = player?.duration ?? 0
        }
        let requestedAt = engine.now
        let outcome: PlaybackOutcome
        switch target {
        case let .feedback(feedback): outcome = engine.play(feedback)
        case .file: outcome = player?.start() ?? .notPlayed(.unsupported)
        }
        if case let .scheduled(feltAt) = outcome {
            let remaining = feltAt.nanoseconds + length + 20_000_000 - engine.now.nanoseconds
            if remaining > 0 { Thread.sleep(forTimeInterval: Double(remaining) / 1e9) }
        }
        engine.stop()
        withExtendedLifetime(player) {}
        (output.device as? EvdevActuator)?.close()
        return DeviceRun(outcome: outcome, requestedAt: requestedAt, output: output)
    }
}
