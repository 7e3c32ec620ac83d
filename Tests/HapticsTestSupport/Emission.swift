import HapticsRendering

/// One command as an actuator received it: on which channel, for which deadline, and when.
public struct Emission: Equatable, Sendable, CustomStringConvertible {
    /// The command performed.
    public var command: ActuatorCommand
    /// The raw value of the channel it was performed on.
    public var channel: Int
    /// The instant it was due, in nanoseconds of the monotonic clock.
    public var deadlineNanoseconds: Int64
    /// The instant it was performed, in nanoseconds of the monotonic clock.
    public var nowNanoseconds: Int64

    /// Creates an emission; tests write the ones they expect.
    public init(_ command: ActuatorCommand, channel: Int = 0, deadlineNanoseconds: Int64, nowNanoseconds: Int64) {
        self.command = command
        self.channel = channel
        self.deadlineNanoseconds = deadlineNanoseconds
        self.nowNanoseconds = nowNanoseconds
    }

    /// For example `stop@ch0 deadline 5000000 now 5000000`.
    public var description: String { "\(command)@ch\(channel) deadline \(deadlineNanoseconds) now \(nowNanoseconds)" }
}
