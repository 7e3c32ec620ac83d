import HapticsSystem

/// Counters of a scheduler, read on the control side.
public struct SchedulerStatistics: Sendable, Hashable {
    /// Submissions accepted into the queue.
    public var submitted: Int
    /// Submissions refused because the queue was full.
    public var dropped: Int
    /// Level commands dropped by a `dropStale` channel because they were too late.
    public var droppedStale: Int
    /// Commands handed to outputs.
    public var emitted: Int
    /// Submissions ignored because their player had been released (or never existed).
    public var ignored: Int
    /// Submissions carried out at their instant. Once processing has taken every submission,
    /// `submitted` = `applied` + `ignored` + `discarded`: none is lost on the way.
    public var applied: Int
    /// Submissions thrown away unapplied because the realtime thread stopped before their instant
    /// (it leaves every channel silent instead).
    public var discarded: Int
    /// The largest `now − deadline` of an emitted command (`.zero` when none was late).
    public var maximumLateness: Duration
    /// Held levels performed again before their output's own end (``SchedulerConfiguration/renewalLead``
    /// ahead of it); not counted in `emitted`.
    public var renewed: Int = 0
    /// The largest `now − deadline` of a renewal (`.zero` when none was late). A hold ends early
    /// only if this exceeds the renewal lead.
    public var maximumRenewalLateness: Duration = .zero
    /// Times the realtime thread woke up (deadline reached or woken by a submission).
    public var wakeUps: Int
    /// How far ahead of a deadline the realtime thread arms its wake timer now: the shortest of its
    /// last 32 timer wake-up latencies, at most ``SchedulerConfiguration/wakeAheadLimit``
    /// (docs/internals/scheduler.md, "Waking ahead").
    public var wakeAhead: Duration = .zero
    /// Timer wake-ups that came before the deadline they were armed ahead of (faster than the
    /// wake-ahead): the thread wrote nothing then and spun until the deadline itself.
    /// Counted in `wakeUps` too.
    public var earlyWakeUps: Int = 0
    /// Trace records lost because the trace ring was full.
    public var traceOverflows: Int
    /// Runtime curves refused because every curve slot (`maximumCurves`) was held. (A curve refused
    /// because the queue was full counts in `dropped`.)
    public var droppedCurves: Int = 0
    /// Player endings (``PlayerEnding``) lost because nobody drained them before the ending queue
    /// filled up.
    public var lostEndings: Int = 0
    /// Runtime curve slots held now: curves queued or playing, of `maximumCurves`.
    public var heldCurves: Int = 0
    /// Processing passes run on a caller's thread at the end of an immediate group
    /// (``Scheduler/endImmediateGroup(_:)``): the commands due then reached their outputs without
    /// the realtime thread.
    public var immediatePasses: Int = 0
    /// Immediate groups that left the work to the realtime thread, because
    /// another thread was processing (or the realtime thread had been stopped).
    public var immediateFallbacks: Int = 0
    /// What the system granted the realtime thread (its id, timer slack, and `SCHED_FIFO` directly,
    /// through rtkit, or why not),
    /// `nil` before it first started.
    public var realtimeThread: RealtimeThread.Grant?
}
