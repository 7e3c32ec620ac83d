import HapticsSystem

/// How a tagged start of a player ended, as the realtime side reports it (``Scheduler/drainEndings(into:)``).
///
/// Every start submitted with a nonzero tag (``Scheduler/start(_:at:tag:)``) that the realtime side
/// applies ends exactly once: it plays to its end, or something stops it.
public struct PlayerEnding: Sendable, Hashable {
    /// Why a start ended.
    public enum Reason: UInt8, Sendable, Hashable {
        /// A non-looping player reached the end of its program (or was sought to it).
        case finished
        /// It was stopped before its end: `stop`, `stopAll`, a restart, another player replacing it
        /// on a `replace` or `dropStale` channel, its release, or the realtime thread stopping.
        case stopped
    }

    /// The player.
    public var player: PlayerID
    /// The tag its start was submitted with.
    public var tag: Int64
    /// Why it ended.
    public var reason: Reason
    /// The instant it ended at (its end's deadline, or the stop's instant).
    public var time: MonotonicInstant

    /// Creates an ending record.
    public init(player: PlayerID, tag: Int64, reason: Reason, time: MonotonicInstant) {
        self.player = player
        self.tag = tag
        self.reason = reason
        self.time = time
    }
}

/// An ending as the realtime side pushes it: plain values only.
struct EndingRecord {
    var player: Int32
    var generation: UInt32
    var tag: Int64
    /// `PlayerEnding.Reason`'s raw value (a public enum is not `BitwiseCopyable` to the queue).
    var reason: UInt8
    var time: MonotonicInstant

    static let empty = EndingRecord(player: -1, generation: 0, tag: 0, reason: 0, time: MonotonicInstant(nanoseconds: 0))
}
