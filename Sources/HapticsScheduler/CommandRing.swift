import Synchronization

/// A bounded multi-producer, single-consumer queue of scheduler commands (after Dmitry Vyukov's
/// bounded queue): each slot carries a sequence number that tells producers and the consumer whose
/// turn it is, so a producer on any thread claims a slot with one compare-and-exchange and never waits
/// for another producer or for the consumer. A full queue refuses instead of blocking.
///
/// Capacity is fixed at init (rounded up to a power of two); the storage never grows. All state lives
/// behind pointers so that every operation is non-mutating: producers and the consumer share one
/// instance without Swift exclusivity checks.
struct CommandRing: ~Copyable {
    let capacity: Int
    private let mask: Int
    private let elements: UnsafeMutablePointer<SchedulerCommand>
    private let sequences: UnsafeMutablePointer<Atomic<Int>>
    /// [0] enqueue position (producers), [8] dequeue position (consumer): a cache line apart so that
    /// producers and the consumer do not invalidate each other's line.
    private let positions: UnsafeMutablePointer<Atomic<Int>>

    init(minimumCapacity: Int) {
        precondition(minimumCapacity >= 1, "CommandRing needs a capacity of at least 1")
        var size = 2
        while size < minimumCapacity { size <<= 1 }
        capacity = size
        mask = size - 1
        elements = .allocate(capacity: size)
        elements.initialize(repeating: .empty, count: size)
        sequences = .allocate(capacity: size)
        for index in 0..<size { (sequences + index).initialize(to: Atomic(index)) }
        positions = .allocate(capacity: 16)
        for index in 0..<16 { (positions + index).initialize(to: Atomic(0)) }
    }

    deinit {
        elements.deinitialize(count: capacity)
        elements.deallocate()
        sequences.deinitialize(count: capacity)
        sequences.deallocate()
        positions.deinitialize(count: 16)
        positions.deallocate()
    }

    /// Appends `command`; returns `false` when the queue is full. Lock-free, no allocation.
    func push(_ command: SchedulerCommand) -> Bool {
        var position = positions[0].load(ordering: .relaxed)
        while true {
            let slot = position & mask
            let sequence = sequences[slot].load(ordering: .acquiring)
            let difference = sequence &- position
            if difference == 0 {
                let (exchanged, original) = positions[0].compareExchange(
                    expected: position, desired: position &+ 1,
                    successOrdering: .relaxed, failureOrdering: .relaxed)
                if exchanged {
                    elements[slot] = command
                    // Publishes the element to the consumer.
                    sequences[slot].store(position &+ 1, ordering: .releasing)
                    return true
                }
                position = original
            } else if difference < 0 {
                // The slot still holds an element from one lap ago: the queue is full.
                return false
            } else {
                position = positions[0].load(ordering: .relaxed)
            }
        }
    }

    /// Removes the oldest command, or returns `nil` when none is published. Single consumer only.
    func pop() -> SchedulerCommand? {
        let position = positions[8].load(ordering: .relaxed)
        let slot = position & mask
        let sequence = sequences[slot].load(ordering: .acquiring)
        guard sequence == position &+ 1 else { return nil }
        let command = elements[slot]
        positions[8].store(position &+ 1, ordering: .relaxed)
        // Hands the slot back to producers for the next lap.
        sequences[slot].store(position &+ capacity, ordering: .releasing)
        return command
    }

    /// Whether a published command waits at the head. Single consumer only.
    var hasPublishedCommand: Bool {
        let position = positions[8].load(ordering: .relaxed)
        return sequences[position & mask].load(ordering: .acquiring) == position &+ 1
    }
}
