import HapticsSystem
import Synchronization

/// A pattern player's outputs: the ones it was made with, and the devices that joined it while it
/// played. Appended to on the control side, read by any thread without a lock (a reader sees every
/// output published before its `count` load); at most `capacity` outputs — one per channel.
final class PlayerOutputs: @unchecked Sendable {
    let capacity: Int
    private let storage: UnsafeMutablePointer<PlayerBinding>
    private let published = Atomic<Int>(0)
    /// Serializes appenders; readers never take it.
    private let appending = OrderedMutex<Void>(())

    init(_ initial: [PlayerBinding], capacity: Int) {
        self.capacity = max(capacity, initial.count)
        storage = .allocate(capacity: self.capacity)
        storage.initialize(from: initial, count: initial.count)
        published.store(initial.count, ordering: .releasing)
    }

    deinit {
        storage.deinitialize(count: published.load(ordering: .acquiring))
        storage.deallocate()
    }

    /// How many outputs are published.
    var count: Int { published.load(ordering: .acquiring) }

    /// Output `index` (< `count`); never changes once published.
    subscript(index: Int) -> PlayerBinding { storage[index] }

    /// Every published output, in the order they came.
    var all: [PlayerBinding] {
        let count = count
        return (0..<count).map { storage[$0] }
    }

    /// Publishes one more output; `false` when full. Control side.
    func append(_ output: PlayerBinding) -> Bool {
        appending.withLock { _ in
            let count = published.load(ordering: .relaxed)
            guard count < capacity else { return false }
            (storage + count).initialize(to: output)
            published.store(count + 1, ordering: .releasing)
            return true
        }
    }
}
