import HapticsSystem

/// A pattern rendered for one device profile: a time-ordered command list, ready to prepare and play.
///
/// Time convention (lead-time compensation): offsets count from the *send start* S, the instant
/// the program starts writing to the device. A command written at S + offset is felt one rise time
/// (`leadTime`) later, at S + offset + leadTime, which is the pattern time `offset` on a timeline whose
/// zero is felt at S + leadTime. So offsets equal the pattern times they render, and a player that
/// wants the pattern's time zero felt at instant T starts the program at S = T − leadTime.
/// Stops shift the same way: a motor also needs about its rise time to spin down.
///
/// Every time in a program is in one unit, `Int64` nanoseconds, with the unit in its name: the
/// scheduler's realtime thread reads the commands' offsets in place as it plays them and compares
/// them with the program's duration, so an integer there means no conversion on the realtime path
/// (a `Duration` is 128 bits of attoseconds). The engine's API speaks `Duration`
/// (`HapticPatternPlayer.duration`, `leadTime`).
public struct Program: Sendable, Hashable {
    /// The profile the program was rendered for.
    public var profileName: String
    /// Commands sorted by `offsetNanoseconds` (ties keep render order). The last command is always
    /// `.stop`.
    public var commands: [TimedCommand]
    /// The span from the program start to the final stop (the last command's offset), nanoseconds.
    public var durationNanoseconds: Int64
    /// How much earlier than the pattern's own time zero the first command is sent (the actuator's
    /// rise time), nanoseconds. A player that wants the felt onset at time T starts at T − leadTime.
    public var leadTimeNanoseconds: Int64

    /// Creates a program.
    public init(profileName: String, commands: [TimedCommand], durationNanoseconds: Int64, leadTimeNanoseconds: Int64) {
        self.profileName = profileName
        self.commands = commands
        self.durationNanoseconds = durationNanoseconds
        self.leadTimeNanoseconds = leadTimeNanoseconds
    }
}
