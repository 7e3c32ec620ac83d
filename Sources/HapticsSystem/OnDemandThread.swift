import CHapticsSystem
import Synchronization

/// A named thread that runs `work` at the earliest instant anyone asked for, and otherwise sleeps:
/// no timer is armed while nothing is due, so an idle program is never woken by it.
///
/// `work` gets the clock reading it runs at and returns when it wants to run again (`nil`: not
/// until someone asks). ``schedule(at:)`` asks for a run; it is lock-free and allocation-free, and
/// makes a system call (a futex wake) only when it moves the thread's wake-up sooner — so a
/// realtime thread may call it. The thread waits with a futex on an absolute `CLOCK_MONOTONIC`
/// deadline. ``stop()`` ends the thread and waits for it; no run begins after it returns.
package final class OnDemandThread: @unchecked Sendable {
    /// What is asked of the thread: its wake-up, and the word it parks on.
    package let requests: RunRequests
    private let running = Atomic<Bool>(true)
    private let runCount = Atomic<Int>(0)
    /// The thread's kernel id, once it runs its loop.
    private let threadID = Atomic<Int32>(0)
    private let thread = OrderedMutex<RealtimeThread?>(nil)
    private let work: @Sendable (_ now: MonotonicInstant) -> MonotonicInstant?

    /// Starts the thread (`name`: at most 15 bytes), with nothing due. By default it runs at normal
    /// priority with a loose timer slack (1 ms, so the kernel may batch its wake-ups: housekeeping
    /// needs no precision); an output whose runs are due at instants asks for `SCHED_FIFO`
    /// `priority` and a 1 ns slack (as ``RealtimeThread`` grants them: a refusal leaves it at
    /// normal priority).
    ///
    /// The corresponding C function is `pthread_create`.
    /// `requests`: where its runs are asked for, by default its own; a `RunRequests` kept by
    /// whoever asks lets them ask a thread that is started later, and again after a restart.
    package init(
        name: String, priority: Int32? = nil, timerSlack: Duration = .milliseconds(1),
        requests: RunRequests = RunRequests(),
        work: @escaping @Sendable (_ now: MonotonicInstant) -> MonotonicInstant?
    ) throws(SystemCallError) {
        self.requests = requests
        self.work = work
        let configuration = RealtimeThread.Configuration(name: name, priority: priority, timerSlack: timerSlack)
        let started = try RealtimeThread.start(configuration) { [self] in loop() }
        thread.withLock { $0 = started }
        // Returns once the thread is about to wait or run: none of its start is left to run later.
        RealtimeThread.yield { threadID.load(ordering: .acquiring) != 0 }
    }

    /// How many runs of `work` have ended (a run under way is not counted yet).
    package var runs: Int { runCount.load(ordering: .acquiring) }

    /// Asks for a run at `instant` (at once when it has passed), unless one is due sooner already.
    /// Lock-free, allocation-free; a futex wake only when the thread's wake-up moves sooner.
    package func schedule(at instant: MonotonicInstant) {
        requests.schedule(at: instant)
    }

    /// Ends the thread and waits for it: a run under way finishes first, none begins after.
    /// Idempotent. Called from `work` itself (whatever `work` calls may end its owner), it does
    /// not wait: the thread is detached and ends once that run returns.
    package func stop() {
        running.store(false, ordering: .sequentiallyConsistent)
        _ = CHapticsSystem_wakeIfParked(requests.word)
        // Taken out either way: the thread's body holds this object until it returns, and this
        // object must not hold the thread back.
        let ended = thread.withLock { thread -> RealtimeThread? in
            defer { thread = nil }
            return thread
        }
        if threadID.load(ordering: .relaxed) == ThreadIdentity.current {
            ended?.detach()
        } else {
            ended?.join()
        }
    }

    private func loop() {
        let word = requests.word
        threadID.store(ThreadIdentity.current, ordering: .releasing)
        while running.load(ordering: .acquiring) {
            // Announce the park before reading what is due: a `schedule` after the read sees the
            // mark and wakes the wait (or clears the mark, and the wait returns at once).
            CHapticsSystem_parkBegin(word)
            let target = requests.due.load(ordering: .sequentiallyConsistent)
            let now = CHapticsSystem_monotonicNow()
            guard running.load(ordering: .sequentiallyConsistent) else {
                CHapticsSystem_parkEnd(word)
                break
            }
            if target > now {
                _ = CHapticsSystem_futexWaitUntil(word, 1, target == .max ? -1 : target)
                CHapticsSystem_parkEnd(word)
                continue
            }
            CHapticsSystem_parkEnd(word)
            // Taken before the run: a request made during it stays for the next turn.
            _ = requests.due.exchange(.max, ordering: .sequentiallyConsistent)
            let next = work(MonotonicInstant(nanoseconds: now))
            // Counted once it has ended: a reader that sees the count sees what the run did.
            runCount.add(1, ordering: .releasing)
            if let next { schedule(at: next) }
        }
    }
}
