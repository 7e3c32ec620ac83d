import HapticsSystem
import Synchronization

/// The fixed table of levels uploaded at prepare time, shared lock-free between the control side
/// (which fills and empties entries) and the realtime thread (which plays them).
///
/// Each entry is five atomics: a state word, the level key, the kernel effect id, the last time it
/// was used and its `replay.length`. The state word is `generation << 2 | phase`; a phase change is a compare-exchange,
/// so exactly one side owns an entry at a time:
/// - `free` → `busy` (control claims it to upload) → `ready` (published with a new generation);
/// - `ready` → `playing` (the realtime thread claims it to play; the control side cannot erase a
///   playing effect) → `ready` (after its stop);
/// - `ready` → `busy` (control claims it to evict, expire or update) → `free` or `ready`.
/// The generation defeats ABA: a realtime thread that read a key from generation n cannot claim the
/// entry after it was republished with another key.
internal final class _PreparedLevelTable: @unchecked Sendable {
    enum Phase: UInt64 {
        case free = 0, ready = 1, playing = 2, busy = 3
    }

    let capacity: Int
    private let states: UnsafeMutablePointer<Atomic<UInt64>>
    private let keys: UnsafeMutablePointer<Atomic<UInt64>>
    private let effectIDs: UnsafeMutablePointer<Atomic<Int>>
    private let lastUsed: UnsafeMutablePointer<Atomic<Int64>>
    private let lengths: UnsafeMutablePointer<Atomic<Int64>>

    init(capacity: Int) {
        self.capacity = capacity
        let count = max(capacity, 1)
        states = .allocate(capacity: count)
        keys = .allocate(capacity: count)
        effectIDs = .allocate(capacity: count)
        lastUsed = .allocate(capacity: count)
        lengths = .allocate(capacity: count)
        for index in 0..<count {
            (states + index).initialize(to: Atomic(0))
            (keys + index).initialize(to: Atomic(0))
            (effectIDs + index).initialize(to: Atomic(-1))
            (lastUsed + index).initialize(to: Atomic(0))
            (lengths + index).initialize(to: Atomic(0))
        }
    }

    deinit {
        let count = max(capacity, 1)
        states.deinitialize(count: count).deallocate()
        keys.deinitialize(count: count).deallocate()
        effectIDs.deinitialize(count: count).deallocate()
        lastUsed.deinitialize(count: count).deallocate()
        lengths.deinitialize(count: count).deallocate()
    }

    @inline(__always) func phase(_ index: Int) -> Phase {
        Phase(rawValue: states[index].load(ordering: .acquiring) & 3)!
    }

    @inline(__always) func key(_ index: Int) -> UInt64 { keys[index].load(ordering: .relaxed) }
    @inline(__always) func effectID(_ index: Int) -> Int16 { Int16(truncatingIfNeeded: effectIDs[index].load(ordering: .relaxed)) }
    @inline(__always) func lastUsed(_ index: Int) -> Int64 { lastUsed[index].load(ordering: .relaxed) }
    /// The entry's `replay.length` in nanoseconds (stable while it is ready or playing).
    @inline(__always) func length(_ index: Int) -> Int64 { lengths[index].load(ordering: .relaxed) }
    @inline(__always) func touch(_ index: Int, at instant: MonotonicInstant) {
        lastUsed[index].store(instant.nanoseconds, ordering: .relaxed)
    }

    // MARK: Realtime side

    /// Claims the ready entry holding `key` for playing and returns its index, or -1. Lock-free:
    /// at most `capacity` loads and one compare-exchange.
    @inline(__always)
    func claimForPlaying(_ key: UInt64) -> Int {
        for index in 0..<capacity {
            let state = states[index].load(ordering: .acquiring)
            guard state & 3 == Phase.ready.rawValue, keys[index].load(ordering: .relaxed) == key else { continue }
            let claimed = states[index].compareExchange(
                expected: state, desired: state & ~3 | Phase.playing.rawValue, ordering: .acquiringAndReleasing
            ).exchanged
            return claimed ? index : -1
        }
        return -1
    }

    /// Hands a playing entry back (its effect was stopped).
    @inline(__always)
    func releaseFromPlaying(_ index: Int) {
        let state = states[index].load(ordering: .relaxed)
        states[index].store(state & ~3 | Phase.ready.rawValue, ordering: .releasing)
    }

    // MARK: Control side

    /// Claims entry `index` for the control side if it is in `phase` (free or ready).
    func claim(_ index: Int, from phase: Phase) -> Bool {
        let state = states[index].load(ordering: .acquiring)
        guard state & 3 == phase.rawValue else { return false }
        return states[index].compareExchange(
            expected: state, desired: state & ~3 | Phase.busy.rawValue, ordering: .acquiringAndReleasing
        ).exchanged
    }

    /// Publishes a claimed entry as ready to play `key` with kernel id `effectID`, uploaded with a
    /// `replay.length` of `lengthMilliseconds`.
    func publish(_ index: Int, key: UInt64, effectID: Int16, lengthMilliseconds: Int, usedAt instant: MonotonicInstant) {
        keys[index].store(key, ordering: .relaxed)
        lengths[index].store(Int64(lengthMilliseconds) * 1_000_000, ordering: .relaxed)
        effectIDs[index].store(Int(effectID), ordering: .relaxed)
        lastUsed[index].store(instant.nanoseconds, ordering: .relaxed)
        let state = states[index].load(ordering: .relaxed)
        // New generation: a realtime thread holding a stale view of this entry cannot claim it.
        states[index].store(((state >> 2) &+ 1) << 2 | Phase.ready.rawValue, ordering: .releasing)
    }

    /// Returns a claimed entry to `ready` unchanged (an update failed; the old effect is still there).
    func restore(_ index: Int) {
        let state = states[index].load(ordering: .relaxed)
        states[index].store(state & ~3 | Phase.ready.rawValue, ordering: .releasing)
    }

    /// Frees a claimed entry (its effect was erased).
    func free(_ index: Int) {
        keys[index].store(0, ordering: .relaxed)
        effectIDs[index].store(-1, ordering: .relaxed)
        let state = states[index].load(ordering: .relaxed)
        states[index].store(((state >> 2) &+ 1) << 2 | Phase.free.rawValue, ordering: .releasing)
    }

    /// The index of the entry (ready or playing) holding `key`, or `nil`.
    func index(of key: UInt64) -> Int? {
        (0..<capacity).first { phase($0) == .ready || phase($0) == .playing ? self.key($0) == key : false }
    }
}
