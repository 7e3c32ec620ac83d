import Foundation
import Haptics
import HapticsAudio
import HapticsDevices
import HapticsRendering
import HapticsScheduler
import HapticsSystem

/// One play on a real evdev device through the engine: prepared first (effects uploaded), then
/// played in real time, then the engine stopped (the device ends silent).
struct DeviceRun {
    /// What the engine said.
    let outcome: PlaybackOutcome
    /// What happened to the sound, when `--audio` asked for it.
    var audio: AudioOutcome? = nil
    /// When the play was requested.
    let requestedAt: MonotonicInstant
    /// The device played on.
    let output: HapticEngine.Output

    static func play(_ target: PlayTarget, path: String, audio: AudioChoice = .none) throws(CommandLineError) -> DeviceRun {
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
        let sound = audio == .none ? nil : try PlaySound(audio, engine: engine, lead: max(.zero, output.profile.riseTime))
        let requestedAt = engine.now
        let started = try target.start(on: engine, sound: sound, prepare: true)
        if case let .scheduled(feltAt) = started.outcome {
            SystemMonotonicClock.sleep(until: feltAt + started.length + .milliseconds(20))
        }
        sound?.finish()
        engine.stop()
        withExtendedLifetime(started.player) {}
        (output.device as? EvdevActuator)?.close()
        return DeviceRun(outcome: started.outcome, audio: started.audio, requestedAt: requestedAt, output: output)
    }
}
