import HapticsDevices
import HapticsRendering
import HapticsScheduler

/// One device's part in preparing a vocabulary item: what `HapticEngine.prepare(_:on:)` needs of
/// it outside the engine's lock.
struct PreparationTarget {
    let output: any PreparableActuator
    /// The item's program rendered for the device, at intensity 1.
    let program: Program
    /// The profile that re-maps it to other intensities.
    let profile: DeviceProfile
    let channel: ChannelID
    /// Whether the device applies the engine gain itself (`FF_GAIN`).
    let hardwareGain: Bool
    /// The device's own gain (`HapticEngine.setGain(_:for:)`), which multiplies the engine gain.
    let deviceGain: Double

    /// The part of `device` in vocabulary item `index`, or `nil` when it prepares nothing.
    init?(_ device: EngineDevice, item index: Int, deviceGain: Double) {
        guard let output = device.preparable else { return nil }
        self.output = output
        program = device.programs[index]
        profile = device.profile
        channel = device.channel
        hardwareGain = device.hardwareGain != nil
        self.deviceGain = deviceGain
    }
}
