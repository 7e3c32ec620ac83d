/// Counters of an ``EvdevActuator``, read on the control side.
public struct EvdevActuatorStatistics: Hashable, Sendable {
    /// Commands `perform` accepted (not counting those dropped after close or loss).
    public var commands: Int
    /// Non-silent commands played from a prepared effect (one `write()` each, which also stops
    /// the level that played before).
    public var preparedTriggers: Int
    /// Non-silent commands that were not prepared and went through the streaming effect.
    public var streamedLevels: Int
    /// `write()` calls of `EV_FF` events (play, stop, gain; a change of level is one call of two events).
    public var writes: Int
    /// `EVIOCSFF` calls made on the realtime thread for the streaming effect.
    public var streamingUploads: Int
    /// `EVIOCSFF` calls made at prepare time.
    public var preparedUploads: Int
    /// `EVIOCRMFF` calls (evictions, expiry, close).
    public var erasures: Int
    /// Prepared effects erased to make room for another program's level.
    public var evictions: Int
    /// Levels `prepare` could not place in the table (every entry belonged to the program being
    /// prepared or was playing); they play through the streaming effect.
    public var levelsLeftToStreaming: Int
    /// `ENOSPC` answers to an upload (another process holds slots of the same device).
    public var noSpaceErrors: Int
    /// Calls that failed with an errno other than `ENODEV` on the realtime path.
    public var failedCalls: Int
    /// Commands dropped because the device was closed or lost.
    public var droppedCommands: Int

    /// Creates counters.
    public init(
        commands: Int = 0, preparedTriggers: Int = 0, streamedLevels: Int = 0, writes: Int = 0,
        streamingUploads: Int = 0, preparedUploads: Int = 0, erasures: Int = 0, evictions: Int = 0,
        levelsLeftToStreaming: Int = 0, noSpaceErrors: Int = 0, failedCalls: Int = 0, droppedCommands: Int = 0
    ) {
        self.commands = commands
        self.preparedTriggers = preparedTriggers
        self.streamedLevels = streamedLevels
        self.writes = writes
        self.streamingUploads = streamingUploads
        self.preparedUploads = preparedUploads
        self.erasures = erasures
        self.evictions = evictions
        self.levelsLeftToStreaming = levelsLeftToStreaming
        self.noSpaceErrors = noSpaceErrors
        self.failedCalls = failedCalls
        self.droppedCommands = droppedCommands
    }
}
