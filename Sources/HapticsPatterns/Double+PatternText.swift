extension Double {
    /// The number as the AHAP encoder writes it: Swift's shortest round-trip text, whole numbers
    /// keeping their `.0` (`1.0`, `0.25`, `1e-07`), as AHAP files conventionally spell them
    /// (`"Version": 1.0`); not finite → `0`, which JSON cannot hold otherwise.
    ///
    /// Everywhere else numbers are written by ``NumberText``.
    var jsonText: String {
        guard isFinite else { return "0" }
        return description
    }
}
