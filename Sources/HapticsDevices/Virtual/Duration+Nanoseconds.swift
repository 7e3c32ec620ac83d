extension Duration {
    /// The duration in whole nanoseconds (overflows only beyond ~292 years).
    internal var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
