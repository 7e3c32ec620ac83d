import CHapticsSystem
import HapticsSystem

// Immediate processing: a caller plays what it just submitted from its own thread, when no other
// thread is processing, instead of waking the realtime thread and waiting for it to take the
// command. Processing stays one thread at a time — whoever owns `processing` — so every output
// keeps a single writer, and the pass is the realtime thread's own pass: holds, stops, overlap
// policies, renewals and endings come out exactly as if the realtime thread had run it.
extension Scheduler {
    /// Runs a processing pass on the calling thread, if no other thread is processing: every
    /// submission due now (with the ``SubmissionRoute/immediate`` route, or not) reaches its output
    /// before this returns — a prepared trigger's one `write()` happens here, on the caller's
    /// thread. What is timed (a program's next steps, its stop, submissions for later, renewals)
    /// stays with the realtime thread, which this wakes only when the pass brought its next
    /// deadline forward.
    ///
    /// When another thread is processing (the realtime thread, another caller) or the realtime
    /// thread has been stopped, nothing runs here: the realtime thread is woken as a plain
    /// submission would wake it, and takes the work on its next pass
    /// (``SchedulerStatistics/immediateFallbacks``).
    ///
    /// Lock-free, allocation-free, and it never waits for another thread. Callable from any
    /// thread, also on a scheduler driven by ``process()`` (a test's).
    ///
    /// - Returns: ``ImmediateProcessing/processedHere`` when the pass ran on this thread,
    ///   ``ImmediateProcessing/leftToRealtimeThread`` otherwise.
    @discardableResult
    public func processImmediately() -> ImmediateProcessing {
        guard beginProcessing() else {
            immediateFallbackCount.add(1, ordering: .relaxed)
            wakeRealtimeThread()
            return .leftToRealtimeThread
        }
        // Checked with processing owned: the realtime thread's last pass (which silences
        // everything) begins only after this pass ends, or this one sees the flag.
        guard !immediateClosed.load(ordering: .sequentiallyConsistent) else {
            endProcessing()
            immediateFallbackCount.add(1, ordering: .relaxed)
            wakeRealtimeThread()
            return .leftToRealtimeThread
        }
        let before = nextDeadline.load(ordering: .relaxed)
        realtime.pointee.onCallerThread = true
        let next = processPass()
        realtime.pointee.onCallerThread = false
        // The parked realtime thread waits for the deadline it read (`before`, or `next` if it read
        // after this pass): one sooner moves its wake timer — no wake now, no context switch while
        // the device driver still has the trigger to send. Armed while this pass owns processing,
        // so that arms follow the order of the passes.
        if next < before { bringRealtimeDeadlineForward(to: next) }
        endProcessing()
        immediatePassCount.add(1, ordering: .relaxed)
        // The realtime thread may be waiting for this pass to end: either it sees `processing`
        // free after announcing its wait, or this side sees the announcement here and wakes it.
        if awaitsHandOver.load(ordering: .sequentiallyConsistent) { wakeRealtimeThread() }
        return .processedHere
    }

    /// Takes processing for the calling thread, if no other thread has it.
    func beginProcessing() -> Bool {
        processing.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
    }

    /// Ends the calling thread's processing.
    func endProcessing() {
        completedPassCount.add(1, ordering: .releasing)
        processing.store(false, ordering: .sequentiallyConsistent)
    }

    /// Waits, without spinning, for the thread that owns processing to end its pass (it wakes this
    /// thread then); returns at once when processing is free already.
    func waitForProcessingHandOver() {
        awaitsHandOver.store(true, ordering: .sequentiallyConsistent)
        CHapticsSystem_parkBegin(wakeWord)
        if processing.load(ordering: .sequentiallyConsistent) {
            waitParked(until: .max) { processing.load(ordering: .sequentiallyConsistent) }
        }
        CHapticsSystem_parkEnd(wakeWord)
        awaitsHandOver.store(false, ordering: .sequentiallyConsistent)
    }
}

/// Where a ``Scheduler/processImmediately()`` call left the work.
public enum ImmediateProcessing: Sendable, Hashable {
    /// The pass ran on the calling thread: what was due has reached its outputs.
    case processedHere
    /// Another thread was processing (or the realtime thread had been stopped): the realtime
    /// thread takes the work on its next pass.
    case leftToRealtimeThread
}

/// How a submission reaches the processing side.
public enum SubmissionRoute: Sendable, Hashable {
    /// Queued, and a parked realtime thread is woken to take it (the default).
    case queued
    /// Queued without waking the realtime thread: the caller calls
    /// ``Scheduler/processImmediately()`` right after its submissions, which plays them on the
    /// caller's thread or wakes the realtime thread. One wake decision for a group of submissions,
    /// and none when the pass ran here.
    case immediate
}
