import Synchronization

/// A bounded multi-producer, single-consumer queue of plain values for realtime threads (after
/// Dmitry Vyukov's bounded queue): each slot carries a sequence number that tells producers and the
/// consumer whose turn it is, so a producer on any thread claims a slot with one compare-and-exchange
/// and never waits for another producer or for the consumer. A full queue refuses instead of blocking.
///
/// Capacity is fixed at init (rounded up to a power of two); the storage never grows and nothing is
/// allocated after init. All state lives behind pointers so that every operation is non-mutating:
/// producers and the consumer share one instance without Swift exclusivity checks. The scheduler's
/// command queue and the audio thread's voice queues are both this type.
@_spi(Realtime) public struct BoundedMPSCQueue<Element: BitwiseCopyable>: ~Copyable {
    /// The number of elements the queue holds (a power of two ≥ the requested minimum).
    @_spi(Realtime) public let capacity: Int
    @usableFromInline let mask: Int
    @usableFromInline let elements: UnsafeMutablePointer<Element>
    @usableFromInline let sequences: UnsafeMutablePointer<Atomic<Int>>
    /// [0] enqueue position (producers), [8] dequeue position (consumer): a cache line apart so that
    /// producers and the consumer do not invalidate each other's line.
    @usableFromInline let positions: UnsafeMutablePointer<Atomic<Int>>

    /// Creates a queue of at least `minimumCapacity` elements; `filler` initializes the storage.
    @_spi(Realtime) public init(minimumCapacity: Int, filler: Element) {
        precondition(minimumCapacity >= 1, "BoundedMPSCQueue needs a capacity of at least 1")
        var size = 2
        while size < minimumCapacity { size <<= 1 }
        capacity = size
        mask = size - 1
        elements = .allocate(capacity: size)
        elements.initialize(repeating: filler, count: size)
        sequences = .allocate(capacity: size)
        for index in 0..<size { (sequences + index).initialize(to: Atomic(index)) }
        positions = .allocate(capacity: 16)
        for index in 0..<16 { (positions + index).initialize(to: Atomic(0)) }
    }

    deinit {
        elements.deallocate()
        sequences.deinitialize(count: capacity)
        sequences.deallocate()
        positions.deinitialize(count: 16)
        positions.deallocate()
    }

    /// Appends `element`; returns `false` when the queue is full. Lock-free, no allocation, any thread.
    @inlinable
    @_spi(Realtime) public func push(_ element: Element) -> Bool {
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
                    elements[slot] = element
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

    /// Removes the oldest element, or returns `nil` when none is published. Single consumer only.
    @inlinable
    @_spi(Realtime) public func pop() -> Element? {
        let position = positions[8].load(ordering: .relaxed)
        let slot = position & mask
        let sequence = sequences[slot].load(ordering: .acquiring)
        guard sequence == position &+ 1 else { return nil }
        let element = elements[slot]
        positions[8].store(position &+ 1, ordering: .relaxed)
        // Hands the slot back to producers for the next lap.
        sequences[slot].store(position &+ capacity, ordering: .releasing)
        return element
    }

    /// Whether a published element waits at the head. Single consumer only.
    @inlinable
    @_spi(Realtime) public var hasPublishedElement: Bool {
        let position = positions[8].load(ordering: .relaxed)
        return sequences[position & mask].load(ordering: .acquiring) == position &+ 1
    }
}
