import HapticsDevices
import HapticsRendering
import HapticsScheduler

/// The control side's record of one output the engine plays on: its channel, and per vocabulary
/// item the program rendered for it and the scheduler resources holding that program.
struct EngineDevice {
    let output: HapticEngine.Output
    /// The engine's id of the device (`HapticDevice.ID`), kept across unplugging.
    let deviceID: HapticDevice.ID
    /// The profile it was rendered for: the output's, or its settings' (`DeviceSettings.profile`).
    let profile: DeviceProfile
    let channel: ChannelID
    /// Per vocabulary item, in `HapticEngine.vocabulary` order.
    var programs: [Program]
    var programIDs: [ProgramID]
    var players: [PlayerID]

    /// The device as a preparable output (evdev: uploads at prepare time), if it is one.
    var preparable: (any PreparableActuator)? { output.device as? any PreparableActuator }
    /// The device as an output with a hardware gain (evdev `FF_GAIN`), if it is one and the
    /// device really has the gain.
    var hardwareGain: (any HardwareGainActuator)? { Self.hardwareGain(of: output.device) }

    static func hardwareGain(of device: any Actuator) -> (any HardwareGainActuator)? {
        // An evdev actuator speaks the protocol whatever the device; only FF_GAIN devices apply it.
        if let evdev = device as? EvdevActuator, !evdev.supportsHardwareGain { return nil }
        return device as? any HardwareGainActuator
    }
    /// The device as an output that reports its own loss (evdev `ENODEV`), if it is one.
    var lossReporting: (any LossReportingActuator)? { output.device as? any LossReportingActuator }
}
