import HapticsDevices
import HapticsRendering
import HapticsScheduler

/// What a pattern player holds for one device: the program rendered for it and its scheduler
/// resources, plus what the controls need to know about the device.
struct PlayerBinding: Sendable {
    let program: Program
    let programID: ProgramID
    let player: PlayerID
    let channel: ChannelID
    /// The device profile's control interval (parameter curves are sampled at it).
    let controlInterval: Duration
    /// Whether the device applies the engine gain itself.
    let hardwareGain: Bool
    /// The device, when it can prepare programs ahead of time.
    let preparable: (any PreparableActuator)?
    /// For a pad's HD haptics: the pad whose voice coils play the pattern while this output keeps
    /// its timeline on the pad's timeline channel (``EngineHDHaptics``). `nil` for a device's own channel.
    var voiceCoils: HapticDevice.ID? = nil
}
