import Haptics
import HapticsAudio

/// A target started on an engine: what the engine said, and what to keep until it has played.
struct PlayStart {
    /// The haptic half.
    let outcome: PlaybackOutcome
    /// The sound half, when sound was asked for (`--audio`).
    let audio: AudioOutcome?
    /// The pattern's player, kept alive until the run ends.
    let player: HapticPatternPlayer?
    /// How long the haptics last from their first command to the final stop.
    let length: Duration
    /// What of a feedbackd event was not felt, or heard from where, one line each.
    var notes: [String] = []
}
