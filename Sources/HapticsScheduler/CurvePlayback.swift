import HapticsSystem

/// A curve a player is playing: which slot, when its next control tick is due, and the
/// interpolation cursor. Plain values, part of `PlayerState`.
struct CurvePlayback {
    var slot = -1
    /// The next tick.
    var next = MonotonicInstant(nanoseconds: 0)
    /// The channel profile's control interval (at least 1 ms).
    var stepNanoseconds: Int64 = 0
    var cursor = 0
    /// What each value is multiplied by (the engine gain for an intensity curve).
    var scale = 1.0

    var isBound: Bool { slot >= 0 }
}
