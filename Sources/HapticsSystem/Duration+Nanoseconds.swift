extension Duration {
    /// The duration in whole nanoseconds, rounded toward zero; spans beyond the `Int64` range
    /// (±292 years) saturate at `Int64.min`/`Int64.max` instead of trapping.
    ///
    /// The package API speaks `Duration`; the realtime path keeps spans as `Int64` nanoseconds, and
    /// this is the one conversion between the two. It saturates because the durations it converts
    /// are often a caller's (`seek(to: .seconds(Int64.max))`): each API then bounds the result to
    /// its own range, and no caller's value can trap here.
    package var nanoseconds: Int64 {
        let attoseconds = self.attoseconds
        // Spans under ±9.2 s (every lead time, renewal lead and level lifetime the realtime path
        // converts) fit 64 bits of attoseconds: one 64-bit division instead of a 128-bit one.
        // The same value either way (both round toward zero).
        if let small = Int64(exactly: attoseconds) { return small / 1_000_000_000 }
        let nanoseconds = attoseconds / 1_000_000_000
        return Int64(exactly: nanoseconds) ?? (nanoseconds < 0 ? .min : .max)
    }
}
