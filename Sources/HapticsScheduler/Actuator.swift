import HapticsRendering
import HapticsSystem

/// Where a channel's commands go: an evdev device, a simulated device, a recorder.
public protocol Actuator: AnyObject, Sendable {
    /// Performs `command` on `channel` now. `deadline` is when the command was due and `now` the
    /// scheduler's clock reading when it was emitted (`now − deadline` is the scheduling lateness).
    ///
    /// Called on the realtime thread: implementations must not allocate, lock or log.
    func perform(_ command: ActuatorCommand, channel: ChannelID, deadline: MonotonicInstant, now: MonotonicInstant)
}
