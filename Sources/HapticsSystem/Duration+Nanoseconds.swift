extension Duration {
    /// The duration in whole nanoseconds, rounded toward zero (overflows only beyond ~292 years).
    ///
    /// The public API speaks `Duration`; the realtime path keeps spans as `Int64` nanoseconds, and
    /// this is the one conversion between the two.
    public var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
