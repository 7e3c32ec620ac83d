import CHapticsSystem
@_spi(Realtime) import HapticsSystem

/// The name the realtime thread shows in `top -H`, `ps -L` and trace viewers (≤ 15 bytes).
let realtimeThreadName = "haptics-rt"

extension Scheduler {
    /// Starts the realtime thread: a ``RealtimeThread`` named `haptics-rt`, timer slack 1 ns,
    /// `SCHED_FIFO` if the system grants it (the refusal is kept in `statistics.realtimeThread`; the
    /// thread carries on without it). It loops on `process()` and waits for the next deadline with a futex
    /// wait on an absolute `CLOCK_MONOTONIC` deadline, which a submission interrupts. Control side.
    ///
    /// Only for a scheduler on `SystemMonotonicClock`: the thread's waits are on that clock. The thread
    /// keeps the scheduler alive until `stopRealtimeThread()`; returns once the thread runs its loop
    /// (`RealtimeThread.yield(until:)` says why a thread's start is not left for later).
    package func startRealtimeThread() throws(SchedulerError) {
        precondition(readsSystemClock,
                     "the realtime thread waits on CLOCK_MONOTONIC: a scheduler on another clock is driven with process()")
        let thread = try control.withLock { (book: inout ControlBook) throws(SchedulerError) -> Int32 in
            guard book.realtimeThread == nil else { throw .realtimeThreadAlreadyRunning }
            running.store(true, ordering: .releasing)
            immediateClosed.store(false, ordering: .sequentiallyConsistent)
            let configuration = RealtimeThread.Configuration(
                name: realtimeThreadName, priority: self.configuration.realtimePriority)
            do throws(SystemCallError) {
                // The thread holds the scheduler until its loop ends (`stopRealtimeThread()`).
                let thread = try RealtimeThread.start(configuration) { [self] in runRealtimeLoop() }
                book.realtimeThread = thread
                book.realtimeGrant = thread.grant
                return thread.grant.threadID
            } catch {
                running.store(false, ordering: .releasing)
                throw .threadCreationFailed(errno: error.errno)
            }
        }
        RealtimeThread.yield { realtimeThreadIdentity.load(ordering: .acquiring) == thread }
    }

    /// Whether the realtime thread runs.
    package var isRealtimeThreadRunning: Bool {
        control.withLock { $0.realtimeThread != nil }
    }

    /// Stops the realtime thread and waits for it to end. Before it ends, every player is stopped,
    /// pending submissions are discarded and every channel gets `.stop`: the thread always leaves the
    /// actuators silent. Does nothing when the thread does not run. Control side.
    package func stopRealtimeThread() {
        guard let thread = control.withLock({ book -> RealtimeThread? in
            let thread = book.realtimeThread
            book.realtimeThread = nil
            return thread
        }) else { return }
        // Callers stop playing from their own threads before the thread's last pass silences
        // everything: a pass that began before ends first, and none begins after.
        immediateClosed.store(true, ordering: .sequentiallyConsistent)
        running.store(false, ordering: .releasing)
        wakeRealtimeThread()
        thread.join()
    }

    /// The realtime loop. Runs on the realtime thread only.
    ///
    /// A caller's immediate group may own processing when the thread wants a pass: the
    /// thread then waits for it to end, blocked in the kernel, which lends the caller the thread's
    /// priority meanwhile (``takeProcessing()``). Spinning instead would, at `SCHED_FIFO` on one
    /// core, keep the caller from ever finishing.
    func runRealtimeLoop() {
        realtimeThreadIdentity.store(ThreadIdentity.current, ordering: .releasing)
        while running.load(ordering: .acquiring) {
            takeProcessing()
            _ = processPass()
            endProcessing()
            // Park: announce it, then look at the queue once more, so a submission that raced with the
            // announcement is either seen here or wakes the wait below.
            wake.parkBegin()
            if hasWaitingSubmissions || !running.load(ordering: .acquiring) {
                wake.parkEnd()
                continue
            }
            // The latest pass's deadline, this thread's or a caller's since: a caller whose pass
            // brings it forward after this read sees the parked mark and moves the wake timer.
            let next = nextDeadline.load(ordering: .sequentiallyConsistent)
            let target = wakeTarget(for: next)
            wake.noteArmed(for: target, deadline: next)
            wake.wait(until: target) { nextDeadline.load(ordering: .sequentiallyConsistent) >= next }
            // Still marked parked: nobody woke the thread, its timer did (or it did not wait). The
            // timer is this thread's, or a caller's pass moved it sooner since.
            let expired = wake.isParked
            wake.parkEnd()
            counters.pointee.wakeUps.add(1, ordering: .relaxed)
            if expired {
                let deadline = wake.armedDeadline.load(ordering: .relaxed)
                if timerWoke(target: wake.armedFor.load(ordering: .relaxed), deadline: deadline) { spin(until: deadline) }
            }
        }
        silenceOnExit()
    }

    /// The instant to arm the wake timer for, to act at `deadline`: ahead of it by the wake-up
    /// latency measured so far (``WakeLatencyFloor``), or the deadline itself.
    @inline(__always)
    private func wakeTarget(for deadline: MonotonicInstant) -> MonotonicInstant {
        guard deadline != .max, wake.floor.pointee.aheadNanoseconds > 0 else { return deadline }
        return wake.target(for: deadline, now: currentTime())
    }

    /// A wake-up with the thread still marked parked, its timer last armed for `target` to act at
    /// `deadline`. One at or after `target` is the timer's: its latency becomes a sample of the
    /// wake-ahead, it is traced (`woke`), and one that came before the deadline is counted and
    /// returns `true`: the thread spins the rest of the way (``spin(until:)``). One before `target`
    /// is not (the thread did not wait, or the timer was re-armed as it woke).
    private func timerWoke(target: MonotonicInstant, deadline: MonotonicInstant) -> Bool {
        guard target != .max else { return false }
        let woke = currentTime()
        guard woke >= target else { return false }
        var early = false
        if wake.learns {
            wake.record(latencyNanoseconds: woke.nanoseconds - target.nanoseconds)
            early = woke < deadline
            if early { counters.pointee.earlyWakeUps.add(1, ordering: .relaxed) }
        }
        if traceRing.pointee.isOn.load(ordering: .relaxed) {
            trace(TraceRecord(event: .woke, channel: -1, player: -1, command: .stop,
                              deadline: deadline, time: woke, began: target))
        }
        return early
    }

    /// Spins until `deadline` after a wake-up that came before it — at most the wake-ahead it was
    /// armed with (``WakeLatencyFloor/limit``, 1 ms by default) — instead of sleeping again: a second
    /// timer wake-up would make that deadline late by a whole wake-up latency. Ends sooner when a
    /// submission waits, a caller's pass brought the next deadline forward, or the thread is
    /// stopping: the pass that follows takes care of those.
    private func spin(until deadline: MonotonicInstant) {
        while currentTime() < deadline {
            if hasWaitingSubmissions || nextDeadline.load(ordering: .relaxed) < deadline
                || !running.load(ordering: .relaxed) { return }
            CHapticsSystem_spinPause()
        }
    }

    /// Discards pending work, stops every player and sends `.stop` to every channel. A caller's
    /// pass still running ends first; none begins after (`immediateClosed` is set).
    private func silenceOnExit() {
        takeProcessing()
        defer { endProcessing() }
        var discarded = realtime.pointee.pendingCount
        for index in 0..<realtime.pointee.pendingCount { curvePlayers.release(carriedBy: realtime.pointee.pending[index]) }
        while let command = queue.pop() {
            curvePlayers.release(carriedBy: command)
            discarded += 1
        }
        realtime.pointee.pendingCount = 0
        curvePlayers.releaseAll()
        counters.pointee.discarded.add(discarded, ordering: .relaxed)
        let now = currentTime()
        stopEverything(at: now, now: now)
    }
}
