/// A command for one actuator channel, in the terms of Linux force feedback.
///
/// Magnitudes use the kernel's ranges (`ff_rumble_effect` 0…0xFFFF, `ff_periodic_effect` and
/// `ff_constant_effect` −0x8000…0x7FFF) so a device output can upload them unchanged.
public enum ActuatorCommand: Sendable, Hashable {
    /// Dual-motor rumble: the strong (low-frequency, usually left) and weak (high-frequency) motor.
    case rumble(strong: UInt16, weak: UInt16)
    /// A periodic effect (single vibra motors): waveform, period in milliseconds, magnitude.
    case periodic(waveform: PeriodicWaveform, periodMilliseconds: UInt16, magnitude: Int16)
    /// A constant force (wheels, joysticks).
    case constant(level: Int16)
    /// Silence on this channel.
    case stop

    /// Whether this command leaves the actuator silent.
    public var isSilent: Bool {
        switch self {
        case .stop: return true
        case let .rumble(strong, weak): return strong == 0 && weak == 0
        case let .periodic(_, _, magnitude): return magnitude == 0
        case let .constant(level): return level == 0
        }
    }
}
