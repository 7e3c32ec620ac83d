import HapticsRendering

extension MotorTimeline {
    /// One thing that moves, as the plots and the audio rendering name it.
    public enum Motor: String, Sendable, Hashable, CaseIterable {
        /// The strong (low-frequency) rumble motor.
        case strong
        /// The weak (high-frequency) rumble motor.
        case weak
        /// The magnitude of a periodic effect (single vibra motors).
        case magnitude
        /// A constant force (wheels, joysticks).
        case level

        /// The motors a command drives.
        static func driven(by command: ActuatorCommand) -> [Motor] {
            switch command {
            case .rumble: return [.strong, .weak]
            case .periodic: return [.magnitude]
            case .constant: return [.level]
            case .stop: return []
            }
        }

        /// The motors an actuator has.
        static func driven(by actuator: DeviceProfile.ActuatorKind) -> [Motor] {
            switch actuator {
            case .dualRumble: return [.strong, .weak]
            case .periodic: return [.magnitude]
            case .constantForce: return [.level]
            }
        }
    }
}
