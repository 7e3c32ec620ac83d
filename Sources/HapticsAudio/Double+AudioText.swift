extension Double {
    /// Shortest text that reads back as the same number (`0.25`, `1`), for messages.
    var formatted: String {
        if self == rounded(), abs(self) < 1e15 { return String(Int64(self)) }
        return String(self)
    }
}
