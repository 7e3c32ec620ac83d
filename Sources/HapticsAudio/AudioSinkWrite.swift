import HapticsSystem

/// What happened to one period handed to a sink.
public struct AudioSinkWrite: Sendable, Hashable {
    /// The outcome.
    public enum Status: Sendable, Hashable {
        /// Written.
        case written
        /// The device ran dry before the write; the stream was recovered and the period written
        /// after a gap of silence, so earlier timestamps no longer hold.
        case recoveredUnderrun
        /// The device is gone or unusable (`errno`, e.g. `ENODEV`, `EBADFD`); nothing more can play.
        case deviceLost(errno: Errno)
    }

    /// The outcome.
    public var status: Status
    /// A fresh reading of the stream after the write, when the sink has one.
    public var timestamp: AudioTimestamp?

    /// Creates an outcome.
    public init(status: Status, timestamp: AudioTimestamp?) {
        self.status = status
        self.timestamp = timestamp
    }
}
