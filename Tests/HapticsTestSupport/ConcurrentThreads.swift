import Glibc

/// Runs `body(index)` for `index` in `0..<count`, each on a thread of its own, and returns once all
/// have ended.
///
/// Real threads, not a pool: `DispatchQueue.concurrentPerform` and the concurrency runtime keep one
/// worker per core, so on a 2-core machine "8 threads" would be 2. A barrier lets the threads go
/// together, so their calls overlap from the first one. A thread that cannot be created is a
/// broken test machine: it traps (the others would wait at the barrier forever).
///
/// `niceness` (0…19, `setpriority`) lowers the threads' share of the processors: the rest of the
/// suite runs beside a test, and a load test at nice 19 takes only what the others leave, so it
/// does not make their real-time margins late. The threads under test (realtime, audio) keep theirs.
public func runConcurrently(_ count: Int, niceness: Int32 = 0, _ body: @escaping @Sendable (Int) -> Void) {
    precondition(count > 0, "runConcurrently needs at least one thread")
    let barrier = UnsafeMutablePointer<pthread_barrier_t>.allocate(capacity: 1)
    pthread_barrier_init(barrier, nil, UInt32(count))
    defer {
        pthread_barrier_destroy(barrier)
        barrier.deallocate()
    }
    var threads: [pthread_t] = []
    for index in 0..<count {
        let work = Unmanaged.passRetained(_ThreadWork(barrier: barrier, niceness: niceness) { body(index) }).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, _concurrentThreadMain, work)
        precondition(result == 0, "pthread_create failed with errno \(result) after \(index) of \(count) threads")
        threads.append(thread)
    }
    for thread in threads { pthread_join(thread, nil) }
}

/// What one thread runs: the body, after the barrier.
final class _ThreadWork: @unchecked Sendable {
    let body: @Sendable () -> Void
    let barrier: UnsafeMutablePointer<pthread_barrier_t>
    let niceness: Int32

    init(barrier: UnsafeMutablePointer<pthread_barrier_t>, niceness: Int32, body: @escaping @Sendable () -> Void) {
        self.body = body
        self.barrier = barrier
        self.niceness = niceness
    }
}

private func _concurrentThreadMain(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    let work = Unmanaged<_ThreadWork>.fromOpaque(context!).takeRetainedValue()
    // On Linux the nice value belongs to each thread, and `who` 0 is the calling one: this thread only.
    if work.niceness != 0 { _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, work.niceness) }
    pthread_barrier_wait(work.barrier)
    work.body()
    return nil
}
