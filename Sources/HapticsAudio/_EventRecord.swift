import HapticsSystem

/// A fixed-size record of an ``AudioEvent`` for the event ring.
struct _EventRecord: BitwiseCopyable {
    enum Kind: UInt8 { case none, deviceLost, underrun, late }
    var kind: Kind
    /// The errno's raw value, the underrun's instant or the lateness (nanoseconds), by `kind`.
    var value: Int64

    static let empty = _EventRecord(kind: .none, value: 0)

    var event: AudioEvent? {
        switch kind {
        case .none: return nil
        case .deviceLost: return .deviceLost(errno: Errno(rawValue: CInt(truncatingIfNeeded: value)))
        case .underrun: return .underrunRecovered(at: .init(nanoseconds: value))
        case .late: return .voiceLate(lateness: .nanoseconds(value))
        }
    }
}
