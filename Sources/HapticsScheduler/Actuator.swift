import HapticsRendering
import HapticsSystem

/// Where a channel's commands go: an evdev device, a simulated device, a recorder.
public protocol Actuator: AnyObject, Sendable {
    /// Performs `command` on `channel` now. `deadline` is when the command was due and `now` the
    /// scheduler's clock reading when it was emitted (`now − deadline` is the scheduling lateness).
    ///
    /// Performing the level that plays already plays it again: whatever the device keeps as its own
    /// end of that level (an evdev effect's `replay.length`) starts over.
    ///
    /// Called on the realtime thread: implementations must not allocate, lock or log.
    func perform(_ command: ActuatorCommand, channel: ChannelID, deadline: MonotonicInstant, now: MonotonicInstant)

    /// How much longer, from `now`, the level the last ``perform(_:channel:deadline:now:)`` left
    /// playing on `channel` plays on its own: the device's safety net (an evdev effect's
    /// `replay.length` since its last play), after which the device ends it even if nothing else
    /// does. `nil` when the level plays until the next command (the default), or nothing plays.
    ///
    /// The scheduler asks right after each `perform` of a level and performs a held level again
    /// before this runs out (`SchedulerConfiguration.renewalLead` ahead), so that the engine alone
    /// decides when a level ends and a hung engine still leaves the device silent.
    ///
    /// Called on the realtime thread: implementations must not allocate, lock or log.
    func lifetimeOfPerformedLevel(on channel: ChannelID, now: MonotonicInstant) -> Duration?
}

extension Actuator {
    /// Levels play until the next command: nothing to renew.
    public func lifetimeOfPerformedLevel(on channel: ChannelID, now: MonotonicInstant) -> Duration? { nil }
}
