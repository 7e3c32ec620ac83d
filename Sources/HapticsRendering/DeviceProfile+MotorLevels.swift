extension DeviceProfile {
    /// Maps a game's two motor levels (SDL's and Unity's `low`/`high` frequency motors, each
    /// 0…0xFFFF) to this device's command, without the magnitude curve: a game that sets motor
    /// speeds means those speeds.
    ///
    /// - Dual rumble: `low` drives the strong (low-frequency) motor and `high` the weak
    ///   (high-frequency) one, as SDL does on evdev; `swapsMotors` swaps them.
    /// - Periodic: one motor at the larger of the two levels (0…0x7FFF); the share of `high` picks
    ///   the period, as sharpness does in ``command(intensity:sharpness:)`` (all `high` is the
    ///   shortest period, all `low` the longest).
    /// - Constant force: one force at the larger of the two levels (0…0x7FFF).
    ///
    /// Both levels 0 is silence on every kind. Pure arithmetic: the scheduler calls it on its
    /// realtime thread.
    @inline(__always)
    public func command(lowMotor low: UInt16, highMotor high: UInt16) -> ActuatorCommand {
        let strongest = max(low, high)
        switch actuator {
        case .dualRumble:
            return swapsMotors ? .rumble(strong: high, weak: low) : .rumble(strong: low, weak: high)
        case let .periodic(minimumPeriod, maximumPeriod):
            guard strongest > 0 else { return .stop }
            let shortest = Double(min(minimumPeriod, maximumPeriod))
            let longest = Double(max(minimumPeriod, maximumPeriod))
            let balance = Double(high) / (Double(low) + Double(high))
            let period = (longest - balance * (longest - shortest)).rounded()
            return .periodic(waveform: .sine, periodMilliseconds: UInt16(period), magnitude: Int16(strongest >> 1))
        case .constantForce:
            return .constant(level: Int16(strongest >> 1))
        }
    }
}
