import Haptics
import HapticsAudio
import HapticsDevices
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
    /// What of a feedbackd event was not felt, or heard from where.
    var notes: [String] = []
    /// On a pad with voice coils: whether the pattern played as HD haptics (else as rumble).
    var hdHaptics: Bool? = nil

    static func play(_ target: PlayTarget, on output: HapticEngine.Output, audio: AudioChoice = .none,
                     rumble: Bool = false, trace: TraceFile? = nil) throws(CommandLineError) -> DeviceRun {
        defer { (output.device as? EvdevActuator)?.close() }
        let played = try target.playToTheEnd(on: output, audio: audio, prepare: true, rumble: rumble, trace: trace)
        return DeviceRun(outcome: played.outcome, audio: played.audio, requestedAt: played.requestedAt, output: output,
                         notes: played.notes, hdHaptics: played.hdHaptics)
    }
}
