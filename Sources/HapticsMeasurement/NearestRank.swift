extension Array {
    /// The `fraction` percentile of this array, already in ascending order, by nearest rank (the
    /// element at rank ⌈fraction × count⌉, at least the first); `nil` when empty.
    package func nearestRank(_ fraction: Double) -> Element? {
        guard !isEmpty else { return nil }
        let rank = Int((fraction * Double(count)).rounded(.up))
        return self[Swift.min(Swift.max(rank, 1), count) - 1]
    }
}
