import HapticsRendering

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
    /// The channel whose output a direct start has just been told its first level
    /// (``Scheduler/writeLeadingLevel(_:now:)``), before the bookkeeping that emits it; −1 otherwise.
    /// The bookkeeping's `output` of that same level to that channel performs nothing.
    var leadingChannel = -1
    /// The level written ahead on `leadingChannel`.
    var leadingLevel: ActuatorCommand = .stop
    /// The armed start (``Scheduler/startNow(_:tag:intensity:now:)``): the player slot whose start
    /// `startNow` last applied (−1: none), its generation and intensity factor. Re-checked by every
    /// processing owner before it lets processing go (`refreshArm`).
    var armedSlot = -1
    var armedGeneration: UInt32 = 0
    var armedIntensity: Float = 0
    /// Whether the armed start would be written ahead now, as found when processing was last let
    /// go, and the level it writes first (on its player's channel).
    var armReady = false
    var armedLevel: ActuatorCommand = .stop
}
