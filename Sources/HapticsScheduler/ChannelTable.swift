import Synchronization
import HapticsSystem

/// The scheduler's channels: each one's output, profile and overlap policy (added by the control
/// side, read by the processing side without a lock), and what the processing side holds on it —
/// the level its output plays, its direct level and when that ends, and when the held level must
/// be performed again (``ChannelState``). Allocated when the scheduler is made, freed with it.
///
/// Stored in place in the scheduler, each table behind a stored pointer (see ``PlayerTable``).
struct ChannelTable: ~Copyable {
    /// How many channels there can be (`SchedulerConfiguration.maximumChannels`).
    let capacity: Int
    /// How many channels were added: slots below it are initialized. Published with a release
    /// store after the slot, before any player can name it.
    let count: UnsafeMutablePointer<Atomic<Int>>
    /// The channels' outputs, profiles and policies, initialized one by one as they are added.
    let slots: UnsafeMutablePointer<ChannelSlot>
    /// What the processing side holds on each channel. Processing side only.
    let states: UnsafeMutablePointer<ChannelState>

    private let stateStorage: FixedArray<ChannelState>
    private let countStorage: FixedArray<Atomic<Int>>

    /// Room for `capacity` channels, none added.
    init(capacity: Int) {
        self.capacity = capacity
        slots = .allocate(capacity: max(capacity, 1))
        stateStorage = FixedArray(repeating: ChannelState(), count: capacity)
        states = stateStorage.base
        countStorage = FixedArray(count: 1) { _ in Atomic<Int>(0) }
        count = countStorage.base
    }

    deinit {
        slots.deinitialize(count: count.pointee.load(ordering: .acquiring))
        slots.deallocate()
    }

    /// Adds a channel in the next slot and publishes it; `nil` when every slot is taken. Control
    /// side, under the scheduler's lock.
    func add(_ slot: ChannelSlot) -> Int? {
        let index = count.pointee.load(ordering: .relaxed)
        guard index < capacity else { return nil }
        (slots + index).initialize(to: slot)
        count.pointee.store(index + 1, ordering: .releasing)
        return index
    }
}
