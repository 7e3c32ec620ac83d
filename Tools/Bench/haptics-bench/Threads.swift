import Glibc
import HapticsSystem
import Synchronization

/// Runs `body(index)` on `count` new pthreads that start together: `begin` is called once every
/// thread is created and waiting, `end` once all have joined; so whatever they measure covers exactly
/// the threads' work, not their creation. (Both closures exist before `begin` runs: creating a closure
/// context inside the window would itself allocate.)
func runTogether(threads count: Int, begin: () -> Void, end: () -> Void, _ body: @escaping @Sendable (Int) -> Void) {
    let gate = ThreadGate()
    var threads: [pthread_t] = []
    threads.reserveCapacity(count)
    for index in 0..<count {
        let context = Unmanaged.passRetained(ThreadWork(index: index, gate: gate, body: body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, benchThreadMain, context)
        precondition(result == 0, "pthread_create failed: \(result)")
        threads.append(thread)
    }
    while gate.ready.load(ordering: .acquiring) < count { sched_yield() }
    begin()
    gate.go.store(true, ordering: .releasing)
    for thread in threads { pthread_join(thread, nil) }
    end()
}

final class ThreadGate: Sendable {
    let ready = Atomic<Int>(0)
    let go = Atomic<Bool>(false)
}

final class ThreadWork: Sendable {
    let index: Int
    let gate: ThreadGate
    let body: @Sendable (Int) -> Void
    init(index: Int, gate: ThreadGate, body: @escaping @Sendable (Int) -> Void) {
        self.index = index
        self.gate = gate
        self.body = body
    }
}

private func benchThreadMain(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    let work = Unmanaged<ThreadWork>.fromOpaque(context!).takeRetainedValue()
    work.gate.ready.add(1, ordering: .acquiringAndReleasing)
    while !work.gate.go.load(ordering: .acquiring) { sched_yield() }
    work.body(work.index)
    return nil
}

/// What the realtime thread got, for a benchmark's report: `SCHED_FIFO 50`, or why not.
///
/// Through the priority's own description: mapping `priorityRefusal` through optional chaining
/// in a benchmark's report crashed the Swift 6.3.1 optimizer (an ownership verifier failure in
/// copy propagation).
func realtimePriority(_ grant: RealtimeThread.Grant?) -> String {
    guard let grant else { return "realtime thread not started" }
    return grant.priority.description
}

/// The kernel ids of this process's threads named `name` (`/proc/self/task`).
func threadIDs(named name: String) -> [Int32] {
    FileDescriptor.numberedEntries(in: "/proc/self/task", prefix: "")
        .compactMap { $0.split(separator: "/").last.flatMap { Int32($0) } }
        .filter { ThreadIdentity.name(of: $0) == name }
}
