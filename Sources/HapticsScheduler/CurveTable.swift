import Synchronization
import HapticsSystem

/// Preallocated space for runtime parameter curves: `capacity` curves of up to `pointCapacity`
/// control points each, and the list of players that have one bound, allocated once when the
/// scheduler is made and freed with it.
///
/// A curve slot is claimed by the submitting thread (one compare-and-exchange, any thread), filled,
/// and handed to the realtime side by the one queue entry that names it; the realtime side gives it
/// back (one release store) when the curve has played out, is replaced, or its submission is
/// ignored or discarded. The points are never touched by both sides at once.
///
/// Stored by the scheduler behind a stored pointer (``CurvePlayers`` holds it too), each table of
/// it behind a stored pointer (see ``PlayerTable``).
struct CurveTable: ~Copyable {
    let capacity: Int
    let pointCapacity: Int
    /// Per slot: 0 free, 1 held (being written, queued, or playing).
    private let states: UnsafeMutablePointer<Atomic<Int>>
    /// Per slot, `pointCapacity` control points: seconds from the curve's origin, and values.
    let times: UnsafeMutablePointer<Double>
    let values: UnsafeMutablePointer<Double>
    let counts: UnsafeMutablePointer<Int>
    /// Per slot: the curve's origin (its time 0) and its last point.
    let origins: UnsafeMutablePointer<MonotonicInstant>
    let ends: UnsafeMutablePointer<MonotonicInstant>
    /// Player slots with a curve bound (any order), and the ones a pass found due at one tick
    /// (`RealtimeState.curvePlayers`, `dueCurves`). Processing side only.
    let players: UnsafeMutablePointer<Int>
    let due: UnsafeMutablePointer<Int>

    private let stateStorage: FixedArray<Atomic<Int>>
    private let timeStorage: FixedArray<Double>
    private let valueStorage: FixedArray<Double>
    private let countStorage: FixedArray<Int>
    private let originStorage: FixedArray<MonotonicInstant>
    private let endStorage: FixedArray<MonotonicInstant>
    private let playerStorage: FixedArray<Int>
    private let dueStorage: FixedArray<Int>

    /// `capacity` free curve slots of `pointCapacity` points, for up to `playerCount` players.
    init(capacity: Int, pointCapacity: Int, playerCount: Int) {
        self.capacity = capacity
        self.pointCapacity = pointCapacity
        stateStorage = FixedArray(count: capacity) { _ in Atomic(0) }
        states = stateStorage.base
        timeStorage = FixedArray(repeating: 0, count: capacity * pointCapacity)
        times = timeStorage.base
        valueStorage = FixedArray(repeating: 0, count: capacity * pointCapacity)
        values = valueStorage.base
        countStorage = FixedArray(repeating: 0, count: capacity)
        counts = countStorage.base
        originStorage = FixedArray(repeating: MonotonicInstant(nanoseconds: 0), count: capacity)
        origins = originStorage.base
        endStorage = FixedArray(repeating: MonotonicInstant(nanoseconds: 0), count: capacity)
        ends = endStorage.base
        playerStorage = FixedArray(repeating: -1, count: playerCount)
        players = playerStorage.base
        dueStorage = FixedArray(repeating: -1, count: playerCount)
        due = dueStorage.base
    }

    /// Claims a free slot, or `nil` when every slot is held. Lock-free, any thread.
    func claim() -> Int? {
        for slot in 0..<capacity {
            let (claimed, _) = states[slot].compareExchange(expected: 0, desired: 1, ordering: .acquiring)
            if claimed { return slot }
        }
        return nil
    }

    /// Gives a slot back (its points are no longer read). Realtime-safe: one store.
    func release(_ slot: Int) {
        guard slot >= 0 && slot < capacity else { return }
        states[slot].store(0, ordering: .releasing)
    }

    /// How many slots are held now (statistics and tests).
    var heldCount: Int {
        (0..<capacity).reduce(0) { $0 + states[$1].load(ordering: .relaxed) }
    }

    /// The curve's value `seconds` after its origin: its first point's value before that point,
    /// linear between points, the last point's value after the last — `ParameterCurve.value(atOffset:)`
    /// over time-sorted points, step for step. `cursor` remembers where the last lookup ended, so that
    /// increasing times cost O(1) amortized; it only moves forward.
    func value(_ slot: Int, atSeconds seconds: Double, cursor: inout Int) -> Double {
        let base = slot * pointCapacity
        let count = counts[slot]
        if seconds <= times[base] { return values[base] }
        if cursor < 1 { cursor = 1 }
        while cursor < count && times[base + cursor] < seconds { cursor += 1 }
        guard cursor < count else { return values[base + count - 1] }
        let from = base + cursor - 1
        let to = base + cursor
        let span = times[to] - times[from]
        guard span > 0 else { return values[to] }
        return values[from] + (values[to] - values[from]) * (seconds - times[from]) / span
    }
}
