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

/// The waveform of a periodic effect (`FF_SINE`, `FF_SQUARE`, …).
public enum PeriodicWaveform: UInt8, Sendable, Hashable, CaseIterable {
    /// `FF_SQUARE`.
    case square
    /// `FF_TRIANGLE`.
    case triangle
    /// `FF_SINE`.
    case sine
    /// `FF_SAW_UP`.
    case sawUp
    /// `FF_SAW_DOWN`.
    case sawDown
}

/// One command of a program at its time.
public struct TimedCommand: Sendable, Hashable {
    /// Nanoseconds from the program start at which the command must reach the device.
    /// Lead-time compensation (actuator rise) is already applied: this is the *send* time.
    public var offset: Int64
    /// The normalized intensity (0…1) the command was rendered from, before the magnitude curve.
    /// Kept so that dynamic parameters can re-map it at play time without re-rendering.
    public var intensity: Float
    /// The normalized sharpness (0…1) the command was rendered from.
    public var sharpness: Float
    /// The device command.
    public var command: ActuatorCommand

    /// Creates a timed command.
    public init(offset: Int64, intensity: Float, sharpness: Float, command: ActuatorCommand) {
        self.offset = offset
        self.intensity = intensity
        self.sharpness = sharpness
        self.command = command
    }
}

/// A pattern rendered for one device profile: a time-ordered command list, ready to prepare and play.
///
/// Time convention (lead-time compensation): offsets count from the *send start* S, the instant
/// the program starts writing to the device. A command written at S + offset is felt one rise time
/// (`leadTime`) later, at S + offset + leadTime, which is the pattern time `offset` on a timeline whose
/// zero is felt at S + leadTime. So offsets equal the pattern times they render, and a player that
/// wants the pattern's time zero felt at instant T starts the program at S = T − leadTime.
/// Stops shift the same way: a motor also needs about its rise time to spin down.
public struct Program: Sendable, Hashable {
    /// The profile the program was rendered for.
    public var profileName: String
    /// Commands sorted by `offset` (ties keep render order). The last command is always `.stop`.
    public var commands: [TimedCommand]
    /// Nanoseconds from the program start to the final stop.
    public var duration: Int64
    /// How much earlier than the pattern's own time zero the first command is sent (the actuator's
    /// rise time), in nanoseconds. A player that wants the felt onset at time T starts at T − leadTime.
    public var leadTime: Int64

    /// Creates a program.
    public init(profileName: String, commands: [TimedCommand], duration: Int64, leadTime: Int64) {
        self.profileName = profileName
        self.commands = commands
        self.duration = duration
        self.leadTime = leadTime
    }
}
