/// Control-side bookkeeping, under the actuator's mutex.
struct _ControlState {
    var isClosed = false
    /// The `replay.length` (ms) each table entry was uploaded with.
    var uploadedLengths: [Int]
    /// When each table entry was uploaded or last marked by ``EvdevActuator/prepareAhead(_:)``
    /// (monotonic ns), or `nil` when a `prepare` asked for it: see `_isOnlyPreparedAhead`.
    var preparedAheadAt: [Int64?]
    /// The longest hold (ns) of each level in the programs prepared so far.
    var longestHolds: [UInt64: Int64] = [:]
    /// The longest hold of any level prepared so far.
    var longestHold: Int64 = 0

    init(capacity: Int) {
        uploadedLengths = Array(repeating: 0, count: capacity)
        preparedAheadAt = Array(repeating: nil, count: capacity)
    }
}
