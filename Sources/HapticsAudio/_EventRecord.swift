/// A fixed-size record of an ``AudioEvent`` for the event ring.
struct _EventRecord: BitwiseCopyable {
    enum Kind: UInt8 { case none, deviceLost, underrun, late }
    var kind: Kind
    var value: Int64

    static let empty = _EventRecord(kind: .none, value: 0)

    var event: AudioEvent? {
        switch kind {
        case .none: return nil
        case .deviceLost: return .deviceLost(errno: Int32(truncatingIfNeeded: value))
        case .underrun: return .underrunRecovered(at: .init(nanoseconds: value))
        case .late: return .voiceLate(lateness: value)
        }
    }
}
