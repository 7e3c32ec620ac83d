/// Storage for a fixed number of elements, allocated and initialized once and freed with its owner:
/// what the realtime path reads and writes in place, never resized, never copied.
///
/// `~Copyable`, so exactly one owner frees it (`deinit`). Realtime code reaches the elements
/// through ``base`` (a plain pointer, no retain, no bounds check); the owner keeps the array alive
/// for as long as any pointer to it is used. Elements may be non-copyable (`Atomic`).
package struct FixedArray<Element: ~Copyable>: ~Copyable {
    /// The first element.
    package let base: UnsafeMutablePointer<Element>
    /// How many elements there are, all initialized.
    package let count: Int

    /// `count` elements (`count` ≥ 0), the one at each index made by `make(index)`. At least one
    /// element's room is allocated, so `base` is always a valid address.
    package init(count: Int, initializingWith make: (Int) -> Element) {
        precondition(count >= 0, "a FixedArray cannot hold \(count) elements")
        base = .allocate(capacity: max(count, 1))
        for index in 0..<count { (base + index).initialize(to: make(index)) }
        self.count = count
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }
}

extension FixedArray where Element: Copyable {
    /// `count` copies of `element`.
    package init(repeating element: Element, count: Int) {
        self.init(count: count) { _ in element }
    }
}
