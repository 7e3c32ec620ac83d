#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension DeviceProfile {
    /// Maps a normalized intensity and sharpness to this device's command.
    ///
    /// - Intensity (0…1) goes through the magnitude curve: 0 stays 0 (silence), anything above
    ///   becomes `magnitudeFloor + (1 − magnitudeFloor) · intensity ^ magnitudeExponent`.
    /// - On dual rumble, sharpness balances the motors: 0 drives only the strong (low-frequency)
    ///   motor, 1 only the weak (high-frequency) one, 0.5 both fully; in between, the motor on the far
    ///   side fades linearly. The floor applies to each motor's own drive, so a motor that is
    ///   driven at all is driven hard enough to spin. `swapsMotors` swaps the two outputs.
    /// - On periodic devices, sharpness picks the period: 1 is the shortest period of the range,
    ///   0 the longest (a sine).
    /// - On constant-force devices, the magnitude is the force level; sharpness has no effect.
    ///
    /// Out-of-range and NaN inputs are clamped (NaN counts as 0). Pure arithmetic with no
    /// allocation, no locks and no logging: the scheduler calls it on its realtime thread to
    /// re-map dynamic parameters.
    @inline(__always)
    public func command(intensity: Float, sharpness: Float) -> ActuatorCommand {
        let level = Self._unitClamped(Double(intensity))
        let balance = Self._unitClamped(Double(sharpness))
        switch actuator {
        case .dualRumble:
            // min(1, 2·(1 − s)) and min(1, 2·s): both motors at full drive in the middle.
            let strongWeight = min(1, 2 * (1 - balance))
            let weakWeight = min(1, 2 * balance)
            let strong = Self._rumbleMagnitude(_magnitude(level, weight: strongWeight))
            let weak = Self._rumbleMagnitude(_magnitude(level, weight: weakWeight))
            return swapsMotors ? .rumble(strong: weak, weak: strong) : .rumble(strong: strong, weak: weak)
        case let .periodic(minimumPeriod, maximumPeriod):
            let shortest = Double(min(minimumPeriod, maximumPeriod))
            let longest = Double(max(minimumPeriod, maximumPeriod))
            let period = (longest - balance * (longest - shortest)).rounded()
            return .periodic(
                waveform: .sine,
                periodMilliseconds: UInt16(period),
                magnitude: Self._signedMagnitude(_magnitude(level, weight: 1))
            )
        case .constantForce:
            return .constant(level: Self._signedMagnitude(_magnitude(level, weight: 1)))
        }
    }

    /// The device magnitude (0…1) for a clamped intensity and a motor weight (0…1).
    @inline(__always)
    func _magnitude(_ level: Double, weight: Double) -> Double {
        let drive = weight * _curve(level)
        guard drive > 0 else { return 0 }
        let floor = Self._unitClamped(magnitudeFloor)
        return min(1, floor + (1 - floor) * drive)
    }

    /// `level ^ magnitudeExponent`; the C library's `pow` neither allocates nor locks.
    @inline(__always)
    func _curve(_ level: Double) -> Double {
        guard level > 0 else { return 0 }
        if magnitudeExponent == 1 { return level }
        guard magnitudeExponent > 0, magnitudeExponent.isFinite else { return 1 }
        return pow(level, magnitudeExponent)
    }

    /// Clamps to 0…1; NaN becomes 0.
    @inline(__always)
    static func _unitClamped(_ value: Double) -> Double {
        guard value > 0 else { return 0 }
        return min(value, 1)
    }

    /// 0…1 → 0…0xFFFF, rounded to nearest.
    @inline(__always)
    static func _rumbleMagnitude(_ magnitude: Double) -> UInt16 {
        UInt16((_unitClamped(magnitude) * 65_535).rounded())
    }

    /// 0…1 → 0…0x7FFF, rounded to nearest.
    @inline(__always)
    static func _signedMagnitude(_ magnitude: Double) -> Int16 {
        Int16((_unitClamped(magnitude) * 32_767).rounded())
    }
}
