import HapticsSystem
import Synchronization

/// Values appended from any thread, read back in the order they arrived: what a test's event
/// handler or fake device saw.
public final class Recorder<Element: Sendable>: Sendable {
    private let elements: OrderedMutex<[Element]>

    /// Creates an empty recorder with room for `capacity` elements, so that appending (from a
    /// realtime thread, say) does not allocate until then.
    public init(reservingCapacity capacity: Int = 0) {
        var elements: [Element] = []
        elements.reserveCapacity(capacity)
        self.elements = OrderedMutex(elements)
    }

    /// Appends `element`.
    public func append(_ element: Element) {
        elements.withLock { $0.append(element) }
    }

    /// Everything appended so far, in order.
    public var all: [Element] { elements.withLock { $0 } }

    /// Returns everything appended since the last call (or since the start), and forgets it.
    public func take() -> [Element] {
        elements.withLock { elements in
            defer { elements.removeAll(keepingCapacity: true) }
            return elements
        }
    }
}
