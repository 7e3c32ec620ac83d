import HapticsSystem

extension Duration {
    /// A time or length of the pattern IR, in seconds (AHAP's unit), as an engine span rounded to
    /// the nearest nanosecond.
    ///
    /// Rounding rather than truncating matters: 0.7 s is not exactly representable as a `Double`,
    /// and truncated it would be a nanosecond short of 700 ms. NaN is `.zero`; values beyond the
    /// `Int64` nanosecond range (±292 years) are clamped to it.
    public init(patternSeconds seconds: Double) {
        let nanoseconds = (seconds * 1e9).rounded()
        if nanoseconds.isNaN {
            self = .zero
        } else if nanoseconds >= 9.2e18 {
            self = .nanoseconds(Int64.max)
        } else if nanoseconds <= -9.2e18 {
            self = .nanoseconds(Int64.min)
        } else {
            self = .nanoseconds(Int64(nanoseconds))
        }
    }

    /// This span in the pattern IR's unit, seconds (to evaluate curves and parameters at it).
    public var patternSeconds: Double {
        Double(nanoseconds) / 1e9
    }
}
