/// One haptic event of a pattern, placed on the sample grid: what ``WaveformRenderer`` sums.
struct _Voice {
    enum Kind {
        /// A Hann-windowed burst of `frequency`, `amplitude` at its peak.
        case transient
        /// A sine following the intensity and sharpness controls, shaped by `envelope`.
        case continuous
    }

    var kind: Kind
    /// The first frame (the event's time, rounded to the nearest frame).
    var onset: Int64
    /// The frame after the last.
    var end: Int64
    /// The event's own intensity (transients: with the intensity control at their onset applied).
    var amplitude: Double
    /// Transients: the frequency, from the sharpness at their onset. Continuous events: their own
    /// sharpness, to which the sharpness control is added sample by sample.
    var frequencyOrSharpness: Double
    /// Continuous events: the envelope times, in seconds, and whether the level holds.
    var attack: Double
    var decay: Double
    var release: Double
    var sustained: Bool
    /// Continuous events: the phase (radians, 0…2π) at the start of `phaseFrame`, so a block that
    /// carries on where the last one ended continues the sine without a jump.
    var phase: Double
    var phaseFrame: Int64
}
