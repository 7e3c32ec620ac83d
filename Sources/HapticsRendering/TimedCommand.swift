/// One command of a program at its time.
public struct TimedCommand: Sendable, Hashable {
    /// Nanoseconds from the program start at which the command must reach the device.
    /// Lead-time compensation (actuator rise) is already applied: this is the *send* time.
    ///
    /// An integer rather than a `Duration`, like every time in a ``Program``: the scheduler's
    /// realtime thread copies and compares these offsets on every command it plays.
    public var offsetNanoseconds: Int64
    /// The normalized intensity (0…1) the command was rendered from, before the magnitude curve.
    /// Kept so that dynamic parameters can re-map it at play time without re-rendering.
    public var intensity: Float
    /// The normalized sharpness (0…1) the command was rendered from.
    public var sharpness: Float
    /// The device command.
    public var command: ActuatorCommand

    /// Creates a timed command.
    public init(offsetNanoseconds: Int64, intensity: Float, sharpness: Float, command: ActuatorCommand) {
        self.offsetNanoseconds = offsetNanoseconds
        self.intensity = intensity
        self.sharpness = sharpness
        self.command = command
    }
}
