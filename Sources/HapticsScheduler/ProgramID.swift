/// A program loaded into a scheduler.
public struct ProgramID: Sendable, Hashable {
    /// Storage slot in the low 32 bits, slot generation in the high 32 bits: an ID of an unloaded
    /// program never names the program loaded into the same slot later.
    public let rawValue: UInt64

    /// Wraps a raw program identifier.
    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    init(index: Int, generation: UInt32) {
        rawValue = UInt64(generation) << 32 | UInt64(UInt32(index))
    }

    var index: Int { Int(rawValue & 0xFFFF_FFFF) }
    var generation: UInt32 { UInt32(truncatingIfNeeded: rawValue >> 32) }
}
