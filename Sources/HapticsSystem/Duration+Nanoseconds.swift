extension Duration {
    /// The duration in whole nanoseconds, rounded toward zero; spans beyond the `Int64` range
    /// (±292 years) saturate at `Int64.min`/`Int64.max` instead of trapping.
    ///
    /// The public API speaks `Duration`; the realtime path keeps spans as `Int64` nanoseconds, and
    /// this is the one conversion between the two. It saturates because the durations it converts
    /// are often a caller's (`seek(to: .seconds(Int64.max))`): each API then bounds the result to
    /// its own range, and no caller's value can trap here.
    public var nanoseconds: Int64 {
        // Spans under ±9.2 s (every lead time, renewal lead and level lifetime the realtime path
        // converts) fit 64 bits of attoseconds: one division, where `components` divides 128 bits.
        // The same value either way (both round toward zero).
        let attoseconds64 = Int64(bitPattern: _low)
        if _high == (attoseconds64 < 0 ? -1 : 0) { return attoseconds64 / 1_000_000_000 }
        let (seconds, attoseconds) = components
        let (whole, overflowed) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflowed { return seconds < 0 ? .min : .max }
        let (total, carried) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        if carried { return attoseconds < 0 ? .min : .max }
        return total
    }
}
