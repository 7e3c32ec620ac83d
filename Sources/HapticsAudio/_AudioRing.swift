import Synchronization

/// A bounded multi-producer, single-consumer queue of plain values (Vyukov's bounded queue: a
/// sequence number per slot tells producers and the consumer whose turn it is). A producer claims
/// a slot with one compare-and-exchange and never waits; a full queue refuses. Capacity is fixed at
/// init (rounded up to a power of two) and never grows. Elements must be trivial (no references).
struct _AudioRing<Element: BitwiseCopyable>: ~Copyable {
    let capacity: Int
    private let mask: Int
    private let elements: UnsafeMutablePointer<Element>
    private let sequences: UnsafeMutablePointer<Atomic<Int>>
    /// [0] enqueue position, [8] dequeue position: a cache line apart.
    private let positions: UnsafeMutablePointer<Atomic<Int>>

    init(minimumCapacity: Int, filler: Element) {
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

    /// Appends `element`; `false` when full. Lock-free, no allocation, any thread.
    func push(_ element: Element) -> Bool {
        var position = positions[0].load(ordering: .relaxed)
        while true {
            let slot = position & mask
            let difference = sequences[slot].load(ordering: .acquiring) &- position
            if difference == 0 {
                let (exchanged, original) = positions[0].compareExchange(
                    expected: position, desired: position &+ 1, successOrdering: .relaxed, failureOrdering: .relaxed)
                if exchanged {
                    elements[slot] = element
                    sequences[slot].store(position &+ 1, ordering: .releasing)
                    return true
                }
                position = original
            } else if difference < 0 {
                return false
            } else {
                position = positions[0].load(ordering: .relaxed)
            }
        }
    }

    /// Removes the oldest element, or `nil`. One consumer at a time.
    func pop() -> Element? {
        let position = positions[8].load(ordering: .relaxed)
        let slot = position & mask
        guard sequences[slot].load(ordering: .acquiring) == position &+ 1 else { return nil }
        let element = elements[slot]
        positions[8].store(position &+ 1, ordering: .relaxed)
        sequences[slot].store(position &+ capacity, ordering: .releasing)
        return element
    }
}
