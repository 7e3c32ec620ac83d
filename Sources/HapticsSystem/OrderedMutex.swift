import Synchronization

/// A `Mutex` whose ordering ThreadSanitizer can see: each holder acquires an atomic on entry and
/// releases it on exit, so the state it guards is ordered for the sanitizer as it is for the
/// machine. Every lock of the engine's modules is one.
///
/// Why: a contended `Synchronization.Mutex` waits in the kernel (futex) from library code the
/// sanitizer does not instrument, so two threads taking turns at it look unordered and everything
/// they guard is reported as raced — by chance, whenever a test happens to contend the lock. The
/// extra atomic costs two uncontended operations per lock; no lock is taken on the realtime path
/// (the audio thread only ever tries one, `withLockIfAvailable`).
package struct OrderedMutex<Value: ~Copyable>: ~Copyable, @unchecked Sendable {
    private let mutex: Mutex<Value>
    private let order = Atomic<Int>(0)

    /// A lock guarding `value`.
    package init(_ value: consuming sending Value) {
        mutex = Mutex(value)
    }

    /// Runs `body` with the value, under the lock, and returns what it returns or throws what it
    /// throws.
    package func withLock<Result, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        try mutex.withLock { (value: inout sending Value) throws(Failure) -> sending Result in
            _ = order.load(ordering: .acquiring)
            defer { order.wrappingAdd(1, ordering: .releasing) }
            return try body(&value)
        }
    }

    /// Runs `body` with the value if the lock is free now, without waiting: `nil` when another
    /// thread holds it.
    package func withLockIfAvailable<Result, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result? {
        try mutex.withLockIfAvailable { (value: inout sending Value) throws(Failure) -> sending Result in
            _ = order.load(ordering: .acquiring)
            defer { order.wrappingAdd(1, ordering: .releasing) }
            return try body(&value)
        }
    }
}
