import HapticsSystem
import Synchronization
import Testing

/// The realtime path's fixed tables: initialized once, in place, freed with their owner.
@Suite("FixedArray")
struct FixedArrayTests {
    /// Counts how many of its instances are alive.
    final class Tracked {
        static let alive = Atomic<Int>(0)
        let value: Int
        init(_ value: Int) {
            self.value = value
            Self.alive.add(1, ordering: .relaxed)
        }
        deinit { Self.alive.subtract(1, ordering: .relaxed) }
    }

    @Test("each element made at its index, in place; every one released when the array goes")
    func elementsLiveAsLongAsTheArray() {
        let before = Tracked.alive.load(ordering: .relaxed)
        do {
            let array = FixedArray(count: 4) { Tracked($0 * 10) }
            #expect(array.count == 4)
            #expect((0..<4).map { array.base[$0].value } == [0, 10, 20, 30])
            #expect(Tracked.alive.load(ordering: .relaxed) == before + 4)
        }
        #expect(Tracked.alive.load(ordering: .relaxed) == before)
    }

    @Test("non-copyable elements (atomics) and copies of one value; an empty array has an address")
    func atomicsAndRepeatedValues() {
        let counters = FixedArray(count: 3) { Atomic<Int>($0) }
        counters.base[2].add(5, ordering: .relaxed)
        #expect(counters.base[2].load(ordering: .relaxed) == 7)
        let levels = FixedArray(repeating: -1, count: 5)
        levels.base[1] = 3
        #expect((0..<5).map { levels.base[$0] } == [-1, 3, -1, -1, -1])
        let empty = FixedArray(repeating: 0, count: 0)
        #expect(empty.count == 0)
        _ = empty.base
    }
}
