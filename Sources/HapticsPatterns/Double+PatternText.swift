extension Double {
    /// The shortest text that reads back as the same number, as JSON allows it (non-finite → `0`).
    var jsonText: String {
        guard isFinite else { return "0" }
        return description
    }

    /// The number as diagnostics show it: `1` rather than `1.0`, otherwise the shortest exact text.
    var diagnosticText: String {
        if isFinite, self == rounded(), abs(self) < 1e15 { return String(Int64(self)) }
        return description
    }
}
