import HapticsSystem

extension HapticEngine {
    /// What the system granted the engine's realtime thread when it last started: `SCHED_FIFO`
    /// at the configured priority, or why not (`EPERM` without `RLIMIT_RTPRIO`), and its timer
    /// slack. `nil` before the engine has started.
    public var realtimeGrant: RealtimeThread.Grant? { scheduler.realtimeGrant }
}
