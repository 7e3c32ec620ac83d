/// Fixed capacities of a scheduler: everything the realtime path uses is allocated once, at init.
///
/// Each capacity has a range (below); a scheduler clamps a configuration into it (``clamped``) and
/// reports the clamped one as its `configuration`, so a zero or an `Int.max` cannot trap or exhaust
/// memory.
public struct SchedulerConfiguration: Sendable, Hashable {
    /// Commands that can wait in the submission queue (rounded up to a power of two), 1…1 048 576.
    /// A submission to a full queue returns `false` and is counted as dropped.
    public var queueCapacity: Int
    /// Programs that can be loaded at once, 1…32 767 (a player binding keeps the index in 15 bits).
    public var maximumPrograms: Int
    /// Players that can exist at once, 1…65 535.
    public var maximumPlayers: Int
    /// Channels that can be added, 1…65 535 (a player binding keeps the index in 16 bits).
    public var maximumChannels: Int
    /// Trace records kept until `drainTrace(into:)` collects them, 1…1 048 576 (rounded up to a
    /// power of two); records not yet drained are never overwritten, new ones are counted as lost
    /// (`statistics.traceOverflows`) when the ring is full. Records are kept only while tracing is
    /// on (`startTracing()`).
    public var traceCapacity: Int
    /// The `SCHED_FIFO` priority the realtime thread asks for, 1…99.
    public var realtimePriority: Int32
    /// Runtime parameter curves (`setCurve`) that can be queued or playing at once, 1…4 096. A
    /// curve sent while every slot is held returns `false` and is counted in `droppedCurves`.
    public var maximumCurves: Int
    /// The most control points one runtime curve may have, 2…65 536; a longer curve is refused with
    /// ``SchedulerError/curveTooLong(points:maximum:)``. The space is allocated up front:
    /// `maximumCurves` × `maximumCurvePoints` × 16 bytes (512 KiB by default).
    public var maximumCurvePoints: Int
    /// How long before an output's own end of a held level (``Actuator/lifetimeOfPerformedLevel(on:now:)``,
    /// an evdev effect's `replay.length`) the scheduler performs the level again, 1 ms…1 s; at most
    /// half the lifetime. It is the margin a late realtime thread has before a hold would end early
    /// (docs/internals/scheduler.md, "Holds").
    public var renewalLead: Duration
    /// The most the realtime thread arms its wake timer ahead of a deadline to take its own
    /// measured wake-up latency out of the wait, 0…10 ms (0: never ahead). It never acts before the
    /// deadline: docs/internals/scheduler.md, "Waking ahead".
    public var wakeAheadLimit: Duration

    /// Creates a configuration.
    public init(
        queueCapacity: Int = 1024,
        maximumPrograms: Int = 256,
        maximumPlayers: Int = 256,
        maximumChannels: Int = 16,
        traceCapacity: Int = 4096,
        realtimePriority: Int32 = 50,
        maximumCurves: Int = 32,
        maximumCurvePoints: Int = 1024,
        renewalLead: Duration = .milliseconds(50),
        wakeAheadLimit: Duration = .milliseconds(1)
    ) {
        self.queueCapacity = queueCapacity
        self.maximumPrograms = maximumPrograms
        self.maximumPlayers = maximumPlayers
        self.maximumChannels = maximumChannels
        self.traceCapacity = traceCapacity
        self.realtimePriority = realtimePriority
        self.maximumCurves = maximumCurves
        self.maximumCurvePoints = maximumCurvePoints
        self.renewalLead = renewalLead
        self.wakeAheadLimit = wakeAheadLimit
    }

    /// 1024 queued commands, 256 programs, 256 players, 16 channels, 4096 trace records, 32 runtime
    /// curves of up to 1024 points, renewals 50 ms ahead, wake-ups up to 1 ms ahead.
    public static let `default` = SchedulerConfiguration()

    /// This configuration with every value clamped into its range: what a scheduler created with it
    /// uses.
    public var clamped: SchedulerConfiguration {
        SchedulerConfiguration(
            queueCapacity: min(max(queueCapacity, 1), 1 << 20),
            maximumPrograms: min(max(maximumPrograms, 1), 0x7FFF),
            maximumPlayers: min(max(maximumPlayers, 1), 0xFFFF),
            maximumChannels: min(max(maximumChannels, 1), 0xFFFF),
            traceCapacity: min(max(traceCapacity, 1), 1 << 20),
            realtimePriority: min(max(realtimePriority, 1), 99),
            maximumCurves: min(max(maximumCurves, 1), 4_096),
            maximumCurvePoints: min(max(maximumCurvePoints, 2), 65_536),
            renewalLead: min(max(renewalLead, .milliseconds(1)), .seconds(1)),
            wakeAheadLimit: min(max(wakeAheadLimit, .zero), .milliseconds(10)))
    }
}
