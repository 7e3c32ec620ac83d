import Glibc
import HapticsRendering

/// How a channel turns a normalized intensity and sharpness back into a device command, so dynamic
/// parameters can re-map a playing level without re-rendering the program.
///
/// `DeviceProfile.command(intensity:sharpness:)` (HapticsRendering) is the mapping the engine uses;
/// the scheduler reaches it through this requirement.
protocol ChannelCommandMapping {
    func command(intensity: Float, sharpness: Float) -> ActuatorCommand
    // What the fallback below needs; `DeviceProfile` has all of it.
    var actuator: DeviceProfile.Actuator { get }
    var magnitudeExponent: Double { get }
    var magnitudeFloor: Double { get }
    var swapsMotors: Bool { get }
}

extension DeviceProfile: ChannelCommandMapping {}

extension ChannelCommandMapping {
    /// A fallback used only until HapticsRendering provides `DeviceProfile.command(intensity:sharpness:)`
    /// (a member of the type itself wins over this extension): the profile's magnitude curve and floor,
    /// sharpness shifting weight from the strong to the weak motor, or choosing the period.
    func command(intensity: Float, sharpness: Float) -> ActuatorCommand {
        let clampedIntensity = min(max(intensity, 0), 1)
        let clampedSharpness = min(max(sharpness, 0), 1)
        guard clampedIntensity > 0 else { return .stop }
        let curved = pow(Double(clampedIntensity), magnitudeExponent)
        let magnitude = magnitudeFloor + (1 - magnitudeFloor) * curved
        switch actuator {
        case .dualRumble:
            let strongWeight = min(1, 2 * (1 - Double(clampedSharpness)))
            let weakWeight = min(1, 2 * Double(clampedSharpness))
            var strong = UInt16((magnitude * strongWeight * 65535).rounded())
            var weak = UInt16((magnitude * weakWeight * 65535).rounded())
            if swapsMotors { swap(&strong, &weak) }
            return .rumble(strong: strong, weak: weak)
        case let .periodic(minimumPeriod, maximumPeriod):
            let span = Double(maximumPeriod) - Double(minimumPeriod)
            let period = UInt16((Double(maximumPeriod) - span * Double(clampedSharpness)).rounded())
            return .periodic(waveform: .sine, periodMilliseconds: period, magnitude: Int16((magnitude * 32767).rounded()))
        case .constantForce:
            return .constant(level: Int16((magnitude * 32767).rounded()))
        }
    }
}
