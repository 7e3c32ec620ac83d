import HapticsRendering
@_spi(Realtime) import HapticsSystem

/// Everything only the processing thread touches, allocated once at init.
struct RealtimeState {
    var players: UnsafeMutablePointer<PlayerState>
    var channelStates: UnsafeMutablePointer<ChannelState>
    /// Active player slots in start order (mixing is order-independent except for the periodic
    /// waveform, which the earliest-started player chooses).
    var activePlayers: UnsafeMutablePointer<Int>
    var activeCount = 0
    /// The active players a pass's scan found due at its earliest instant, in the order of
    /// `activePlayers` (as many as there are active players at most).
    var dueAlike: UnsafeMutablePointer<Int>
    /// Tests only: performs one of them (and one of `dueCurves`) per scan, the order the lists must
    /// reproduce.
    var scansBeforeEveryEvent = false
    /// Submitted commands waiting for their time, sorted by time descending (the next one is last);
    /// equal times keep submission order.
    var pending: UnsafeMutablePointer<SchedulerCommand>
    var pendingCount = 0
    var pendingCapacity: Int
    /// Player slots with a runtime curve bound (any order).
    var curvePlayers: UnsafeMutablePointer<Int>
    var curvePlayerCount = 0
    /// The curve players a pass's scan found due at its earliest curve tick, in the order of
    /// `curvePlayers`.
    var dueCurves: UnsafeMutablePointer<Int>
    /// The trace number of the submission being applied, for the outputs it causes up to its first
    /// sounding one; 0 otherwise.
    var traceSequence: UInt32 = 0
    /// Set when applying a submission changed a channel other than its own player's, so that the
    /// pass scans every event again instead of trusting its bound (``Scheduler/processPass()``).
    var eventsElsewhere = false
    /// A lower bound of the earliest player, channel and curve event: the latest pass's next
    /// deadline, lowered by every submission applied since (``Scheduler/applyDueSubmissions(now:)``).
    /// Events change only when processing applies something; between passes they are only taken
    /// away (players released, the realtime thread's last silence), which keeps it a bound.
    var eventBound = MonotonicInstant.max
}
