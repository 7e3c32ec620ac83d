import HapticsRendering
import HapticsSystem

/// One fixed-size record of what the realtime path did, written without allocation and formatted
/// later, off the realtime thread.
public struct TraceRecord: Sendable, Hashable {
    /// What happened.
    public enum Event: UInt8, Sendable, Hashable {
        /// A command was handed to the channel's output.
        case emitted
        /// A level command was dropped by a `dropStale` channel.
        case droppedStale
        /// A submission was ignored (released or unknown player).
        case ignored
        /// A held level was performed again before its output's own end of it.
        case renewed
    }

    /// What happened.
    public var event: Event
    /// The channel (−1 when none).
    public var channel: Int32
    /// The player slot (−1 when none).
    public var player: Int32
    /// The command concerned (`.stop` for ignored submissions).
    public var command: ActuatorCommand
    /// When it was due.
    public var deadline: MonotonicInstant
    /// The scheduler's clock when it was processed.
    public var time: MonotonicInstant

    /// Creates a record.
    public init(
        event: Event, channel: Int32, player: Int32, command: ActuatorCommand,
        deadline: MonotonicInstant, time: MonotonicInstant
    ) {
        self.event = event
        self.channel = channel
        self.player = player
        self.command = command
        self.deadline = deadline
        self.time = time
    }
}
