import HapticsSystem

extension Duration {
    /// The span in milliseconds, as the tool prints times (`felt_ms`, `rise 60 ms`).
    package var inMilliseconds: Double { Double(nanoseconds) / 1e6 }

    /// The span in microseconds, as the tool prints lateness (`lateness_us`).
    package var inMicroseconds: Double { Double(nanoseconds) / 1e3 }
}
