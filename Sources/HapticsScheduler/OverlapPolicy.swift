/// What a channel does when several players play on it, and with late commands.
public enum OverlapPolicy: Sendable, Hashable {
    /// A new start on the channel silences and retires the players already playing there.
    case replace
    /// All players on the channel play together: their levels are summed per motor, saturating at the
    /// device's range.
    case mix
    /// Like `replace`, and a level command whose deadline is already more than `maximumLateness`
    /// past when it is processed is dropped (and counted) instead of played late, so latency never
    /// builds up. Stops are never dropped. A `maximumLateness` below zero counts as zero (every late
    /// level is dropped).
    case dropStale(maximumLateness: Duration)
}
