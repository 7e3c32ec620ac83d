import HapticsSystem

extension HapticEngine {
    /// What the system granted the engine's realtime thread when it last started: its thread id,
    /// `SCHED_FIFO` at the configured priority, or through rtkit when the thread may not set it
    /// itself (`EPERM` without `RLIMIT_RTPRIO`), or why neither (`priority`), and its timer slack.
    /// `nil` before the engine has started. The sound output's thread reports its own grant in
    /// its statistics.
    public var realtimeGrant: RealtimeThread.Grant? { scheduler.statistics.realtimeThread }
}
