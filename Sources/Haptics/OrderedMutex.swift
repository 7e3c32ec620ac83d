import Synchronization

/// A `Mutex` whose ordering ThreadSanitizer can see: each holder acquires an atomic on entry and
/// releases it on exit, so the state it guards is ordered for the sanitizer as it is for the
/// machine.
///
/// Why: a contended `Synchronization.Mutex` waits in the kernel (futex) from code the sanitizer does
/// not instrument, so two threads taking turns at it look unordered and everything they guard is
/// reported as raced. The extra atomic costs two uncontended operations per lock, on the control
/// side only (never the realtime or audio thread).
struct OrderedMutex<Value>: ~Copyable, @unchecked Sendable {
    private let mutex: Mutex<Value>
    private let order = Atomic<Int>(0)

    init(_ value: sending Value) {
        mutex = Mutex(value)
    }

    /// Runs `body` with the value, under the lock.
    func withLock<Result: Sendable>(_ body: (inout Value) -> Result) -> Result {
        mutex.withLock { value in
            _ = order.load(ordering: .acquiring)
            defer { order.wrappingAdd(1, ordering: .releasing) }
            return body(&value)
        }
    }
}
