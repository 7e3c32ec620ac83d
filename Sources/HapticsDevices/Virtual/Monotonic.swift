import CHapticsSystem

/// `CLOCK_MONOTONIC` in nanoseconds: the engine's one clock, also the clock of kernel event stamps.
internal enum _Monotonic {
    /// Now, in nanoseconds since boot (not counting suspend).
    static var now: Int64 { CHapticsSystem_monotonicNow() }
}

extension Duration {
    /// The duration in whole nanoseconds (saturating far beyond any timeout used here).
    internal var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
