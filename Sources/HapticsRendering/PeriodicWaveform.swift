/// The waveform of a periodic effect (`FF_SINE`, `FF_SQUARE`, …).
public enum PeriodicWaveform: UInt8, Sendable, Hashable, CaseIterable {
    /// `FF_SQUARE`.
    case square
    /// `FF_TRIANGLE`.
    case triangle
    /// `FF_SINE`.
    case sine
    /// `FF_SAW_UP`.
    case sawUp
    /// `FF_SAW_DOWN`.
    case sawDown
}
