import CHapticsSystem

/// `CLOCK_MONOTONIC` in nanoseconds: the engine's one clock, also the clock of kernel event stamps.
internal enum _Monotonic {
    /// Now, in nanoseconds since boot (not counting suspend).
    static var now: Int64 { CHapticsSystem_monotonicNow() }
}
