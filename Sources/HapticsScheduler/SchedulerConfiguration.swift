/// Fixed capacities of a scheduler: everything the realtime path uses is allocated once, at init.
public struct SchedulerConfiguration: Sendable, Hashable {
    /// Commands that can wait in the submission queue (rounded up to a power of two). A submission
    /// to a full queue returns `false` and is counted as dropped.
    public var queueCapacity: Int
    /// Programs that can be loaded at once.
    public var maximumPrograms: Int
    /// Players that can exist at once.
    public var maximumPlayers: Int
    /// Channels that can be added.
    public var maximumChannels: Int
    /// Trace records kept until `drainTrace(into:)` collects them; older-than-drained records are
    /// never overwritten, new ones are counted as lost when the ring is full.
    public var traceCapacity: Int
    /// The `SCHED_FIFO` priority the realtime thread asks for (1…99).
    public var realtimePriority: Int32

    /// Creates a configuration.
    public init(
        queueCapacity: Int = 1024,
        maximumPrograms: Int = 256,
        maximumPlayers: Int = 256,
        maximumChannels: Int = 16,
        traceCapacity: Int = 4096,
        realtimePriority: Int32 = 50
    ) {
        self.queueCapacity = queueCapacity
        self.maximumPrograms = maximumPrograms
        self.maximumPlayers = maximumPlayers
        self.maximumChannels = maximumChannels
        self.traceCapacity = traceCapacity
        self.realtimePriority = realtimePriority
    }

    /// 1024 queued commands, 256 programs, 256 players, 16 channels, 4096 trace records.
    public static let `default` = SchedulerConfiguration()
}
