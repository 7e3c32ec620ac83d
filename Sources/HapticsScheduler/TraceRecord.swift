import HapticsRendering
import HapticsSystem

/// One fixed-size record of a stage a command passed, written from any thread without a lock or an
/// allocation and formatted later, off the realtime thread.
///
/// The stages of one submission share its `sequence` (a flow): `submitted` on the caller's thread,
/// `dequeued` when the realtime thread took it, `emitted` when the output's `perform` (one `write()`
/// on evdev) returned; `received` when something outside the engine saw the device get it (the
/// kernel's event time on a uinput sink, a virtual DualSense's output report), `audible` when its
/// sound is heard.
public struct TraceRecord: Sendable, Hashable {
    /// What happened.
    public enum Event: UInt8, Sendable, Hashable, CaseIterable {
        /// A command was handed to the channel's output: `began` before its `perform`, `time` when
        /// it returned.
        case emitted
        /// A level command was dropped by a `dropStale` channel.
        case droppedStale
        /// A submission was ignored (released or unknown player).
        case ignored
        /// A held level was performed again before its output's own end of it.
        case renewed
        /// A command was submitted, on the caller's thread: `began` before the queue push, `time`
        /// after it (and the realtime thread's wake), `deadline` when it takes effect.
        case submitted
        /// The realtime thread took a submitted command from the queue (`time`, the pass's clock).
        case dequeued
        /// The device was seen receiving a command (`time`): recorded by whoever observes it
        /// (``Scheduler/recordTrace(_:)``), matched to the `emitted` record before it on the channel.
        case received
        /// A sound became audible (`time`), on the audio output (channel −1).
        case audible
        /// The realtime thread's wake timer woke it (`time`, its clock right after): `began` the
        /// instant the timer was armed for, `deadline` the deadline it was armed ahead of
        /// (docs/internals/scheduler.md, "Waking ahead"). Channel and player −1.
        case woke
    }

    /// What happened.
    public var event: Event
    /// The channel (−1 when none).
    public var channel: Int32
    /// The player slot (−1 when none; the channel's direct level for `setMotorLevels`).
    public var player: Int32
    /// The command concerned (`.stop` for records that carry none).
    public var command: ActuatorCommand
    /// When it was due.
    public var deadline: MonotonicInstant
    /// When the stage ended (for an instant, when it happened).
    public var time: MonotonicInstant
    /// When the stage began: `time` for instants.
    public var began: MonotonicInstant
    /// The submission this record follows (a flow through the stages); 0 when it follows none.
    public var sequence: UInt32
    /// The kernel id of the thread that recorded it (gettid); 0 when unknown.
    public var thread: Int32

    /// Creates a record; `began` defaults to `time`.
    public init(
        event: Event, channel: Int32, player: Int32, command: ActuatorCommand,
        deadline: MonotonicInstant, time: MonotonicInstant,
        began: MonotonicInstant? = nil, sequence: UInt32 = 0, thread: Int32 = 0
    ) {
        self.event = event
        self.channel = channel
        self.player = player
        self.command = command
        self.deadline = deadline
        self.time = time
        self.began = began ?? time
        self.sequence = sequence
        self.thread = thread
    }
}
