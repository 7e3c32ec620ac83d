import HapticsRendering
import HapticsSystem

// Tracing: records go into one preallocated multi-producer ring, from any thread, without a lock or
// an allocation. Off (the default), the realtime path pays one relaxed load per output and nothing
// else; submissions pay one relaxed load.
extension Scheduler {
    /// Starts recording trace records: every submission (`submitted`, numbered), its `dequeued`
    /// and `emitted` stages, renewals, stale drops and ignored submissions. Any thread.
    package func startTracing() {
        traceRing.pointee.isOn.store(true, ordering: .releasing)
    }

    /// Stops recording trace records; those recorded stay until drained. Any thread.
    package func stopTracing() {
        traceRing.pointee.isOn.store(false, ordering: .releasing)
    }

    /// The realtime thread's kernel thread id (0 when it has not run), and its name, `haptics-rt`:
    /// what a trace calls the track of a thread that has already ended.
    package var realtimeThread: (id: Int32, name: String) {
        (realtimeThreadIdentity.load(ordering: .relaxed), realtimeThreadName)
    }

    /// Whether trace records are being recorded. Any thread, one load.
    package var isTracing: Bool {
        traceRing.pointee.isOn.load(ordering: .relaxed)
    }

    /// A new submission number for a flow of records (``TraceRecord/sequence``), never 0; 0 when
    /// tracing is off. Any thread, lock-free.
    ///
    /// For a caller that performs on an output itself (not through the queue) and records its
    /// stages with ``recordTrace(_:)``.
    package func makeTraceSequence() -> UInt32 {
        guard traceRing.pointee.isOn.load(ordering: .relaxed) else { return 0 }
        while true {
            let sequence = traceSequenceCounter.wrappingAdd(1, ordering: .relaxed).newValue
            if sequence != 0 { return sequence }
        }
    }

    /// Records `record` when tracing is on (its `thread` filled in with the calling thread's id
    /// when 0), counting it in `statistics.traceOverflows` when the ring is full. Any thread,
    /// lock-free and allocation-free: the entry point for stages seen outside the scheduler (a
    /// caller's own `write()`, the kernel's receipt of an event, a sound becoming audible).
    package func recordTrace(_ record: TraceRecord) {
        guard traceRing.pointee.isOn.load(ordering: .relaxed) else { return }
        trace(record)
    }

    /// Appends a record (the caller checked that tracing is on), with the calling thread's id.
    func trace(_ record: TraceRecord) {
        traceRing.pointee.record(record)
    }
}
