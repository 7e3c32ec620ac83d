import Glibc
import HapticsSystem

/// An append-only log shared between a device's reader thread and the control side, with a
/// bounded wait for records that arrive asynchronously from the kernel.
///
/// A pthread mutex and condition variable (on `CLOCK_MONOTONIC`, the engine's one clock) rather
/// than Foundation's `NSCondition`: the library links no Foundation.
internal final class _RecordLog<Record: Sendable>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private var records: [Record] = []

    init() {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func append(_ record: Record) {
        pthread_mutex_lock(mutex)
        records.append(record)
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }

    var all: [Record] {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return records
    }

    /// Waits until `isComplete` holds for the records (or `timeout` passes) and returns the records.
    func wait(timeout: Duration, until isComplete: ([Record]) -> Bool) -> (records: [Record], complete: Bool) {
        let deadline = MonotonicInstant.now.advanced(by: timeout).nanoseconds
        var limit = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !isComplete(records) {
            if pthread_cond_timedwait(condition, mutex, &limit) == ETIMEDOUT { return (records, isComplete(records)) }
        }
        return (records, true)
    }
}
