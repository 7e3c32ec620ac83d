import HapticsRendering
import HapticsScheduler
import HapticsSystem

/// One command as a ``SimulatedDevice`` received it: when it arrived, when it was due, where it went.
///
/// A plain fixed-size value so the device can store it on the realtime thread without allocating.
public struct RecordedCommand: Sendable, Hashable {
    /// When the command reached the device (the scheduler's `now` at `perform`).
    public var time: MonotonicInstant
    /// When the command was due.
    public var deadline: MonotonicInstant
    /// The channel it was sent on.
    public var channel: ChannelID
    /// The command itself.
    public var command: ActuatorCommand

    /// Creates a recorded command.
    public init(time: MonotonicInstant, deadline: MonotonicInstant, channel: ChannelID, command: ActuatorCommand) {
        self.time = time
        self.deadline = deadline
        self.channel = channel
        self.command = command
    }

    /// How late the command arrived (negative when early).
    public var lateness: Duration { time - deadline }
}
