/// A player: one program bound to one channel, started, stopped and steered by submissions.
public struct PlayerID: Sendable, Hashable {
    /// Player slot in the low 32 bits, slot generation in the high 32 bits: commands for a released
    /// player are ignored even when its slot already serves a new player.
    public let rawValue: UInt64

    /// Wraps a raw player identifier.
    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    init(index: Int, generation: UInt32) {
        rawValue = UInt64(generation) << 32 | UInt64(UInt32(index))
    }

    var index: Int { Int(rawValue & 0xFFFF_FFFF) }
    var generation: UInt32 { UInt32(truncatingIfNeeded: rawValue >> 32) }
}
