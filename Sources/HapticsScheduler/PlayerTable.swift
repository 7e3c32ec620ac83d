import Synchronization
import HapticsSystem

/// The scheduler's players, one slot each: what binds a slot to a program and channel (written by
/// the control side), the state the processing side plays it with, and what it publishes for
/// `progress(of:)`. Allocated when the scheduler is made, freed with it; never resized.
///
/// Stored in place in the scheduler, each table behind a stored pointer: in code not specialized
/// for a clock, a stored pointer is one load where a computed property would be a call.
struct PlayerTable: ~Copyable {
    /// Words per slot in `publications`: sequence, state, anchor, position, rate, duration (and
    /// padding to a cache line).
    static let publicationStride = 8

    /// How many slots there are (`SchedulerConfiguration.maximumPlayers`).
    let count: Int
    /// Per slot: generation << 32 | program << 16 | channel. Odd generations are live players.
    let bindings: UnsafeMutablePointer<Atomic<Int>>
    /// Per slot: the program the processing side reads for it, or −1. Lets the control side free a
    /// program only once nothing reads it.
    let programInUse: UnsafeMutablePointer<Atomic<Int>>
    /// Per slot, `publicationStride` words the processing side publishes its playback in (a
    /// sequence lock), so that any thread reads a player's progress without a lock.
    let publications: UnsafeMutablePointer<Atomic<Int64>>
    /// Per slot: the player as the processing side runs it. Processing side only.
    let states: UnsafeMutablePointer<PlayerState>
    /// Active slots in start order, and the ones a pass found due at one instant
    /// (`RealtimeState.activePlayers`, `dueAlike`). Processing side only.
    let active: UnsafeMutablePointer<Int>
    let dueAlike: UnsafeMutablePointer<Int>

    private let bindingStorage: FixedArray<Atomic<Int>>
    private let programInUseStorage: FixedArray<Atomic<Int>>
    private let publicationStorage: FixedArray<Atomic<Int64>>
    private let stateStorage: FixedArray<PlayerState>
    private let activeStorage: FixedArray<Int>
    private let dueAlikeStorage: FixedArray<Int>

    /// `count` free slots.
    init(count: Int) {
        self.count = count
        bindingStorage = FixedArray(count: count) { _ in Atomic(0) }
        bindings = bindingStorage.base
        programInUseStorage = FixedArray(count: count) { _ in Atomic(-1) }
        programInUse = programInUseStorage.base
        publicationStorage = FixedArray(count: count * Self.publicationStride) { _ in Atomic<Int64>(0) }
        publications = publicationStorage.base
        stateStorage = FixedArray(repeating: PlayerState(), count: count)
        states = stateStorage.base
        activeStorage = FixedArray(repeating: -1, count: count)
        active = activeStorage.base
        dueAlikeStorage = FixedArray(repeating: -1, count: count)
        dueAlike = dueAlikeStorage.base
    }
}
