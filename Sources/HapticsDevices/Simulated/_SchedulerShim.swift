// TEMPORARY: stands in for the HapticsScheduler declarations until that module lands.
// Delete this file when merging; the signatures below are exactly the agreed ones.
import HapticsRendering

/// A point on `CLOCK_MONOTONIC`, in nanoseconds.
public struct MonotonicInstant: Sendable, Hashable, Comparable {
    /// Nanoseconds since the clock's epoch.
    public var nanoseconds: Int64
    /// Creates an instant.
    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }
    /// The instant `nanoseconds` later.
    public func advanced(by nanoseconds: Int64) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: self.nanoseconds + nanoseconds)
    }
    /// Orders instants by time.
    public static func < (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }
}

/// An actuator channel of the scheduler.
public struct ChannelID: Sendable, Hashable {
    /// The channel number.
    public var rawValue: Int
    /// Creates a channel identifier.
    public init(rawValue: Int) { self.rawValue = rawValue }
}

/// Where the scheduler sends commands; called on the realtime thread.
public protocol ActuatorOutput: AnyObject, Sendable {
    /// Applies `command` to `channel`; must not allocate, lock or log.
    func perform(_ command: ActuatorCommand, channel: ChannelID, deadline: MonotonicInstant, now: MonotonicInstant)
}
