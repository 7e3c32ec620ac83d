import HapticsRendering
@_spi(Realtime) import HapticsSystem

/// What the realtime side knows about a channel beyond its players: what the output plays now,
/// the channel's direct level (rumble and motor levels), and when the level it holds must be
/// performed again.
struct ChannelState {
    /// What the output was last told (the combination of `playerLevel` and `direct`).
    var last: ActuatorCommand = .stop
    var silent = true
    /// The level the channel's players ask for (their mix, or the one player's level).
    var playerLevel: ActuatorCommand = .stop
    /// The direct level (`setMotorLevels`), already mapped to the channel's device; `.stop` when none.
    var direct: ActuatorCommand = .stop
    /// When the direct level ends; `.max` when there is none.
    var directEnd = MonotonicInstant.max
    /// When the held level must be performed again; `.max` when the output holds it on its own
    /// (or nothing plays).
    var renewal = MonotonicInstant.max
    /// How many of `RealtimeState.activePlayers` play on the channel: whether another player plays
    /// here, without a walk of every active player.
    var activePlayerCount = 0

    /// The channel's next event: the direct level's end or the renewal, whichever comes first.
    var nextEventTime: MonotonicInstant { min(directEnd, renewal) }

    /// A renewal is never sooner than this after the perform it renews, whatever an output says
    /// its lifetime is: an output answering 0 cannot make the realtime thread spin.
    static var shortestRenewalSpanNanoseconds: Int64 { 1_000_000 }
    /// Lifetimes are taken up to a day: far beyond any kernel length, and far from overflowing.
    static var longestRenewalSpanNanoseconds: Int64 { 86_400 * 1_000_000_000 }
}
