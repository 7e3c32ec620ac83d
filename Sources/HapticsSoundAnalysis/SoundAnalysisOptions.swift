/// How ``SoundAnalyzer`` turns a sound into a pattern: what counts as a hit, how loud is full
/// strength, which frequencies map onto sharpness, and the bounds on its work.
public struct SoundAnalysisOptions: Sendable, Hashable {
    /// How readily a rise in the sound counts as a hit (a transient), 0…1: 0 keeps only the
    /// clearest hits, 1 takes small ones too. Default 0.5.
    public var sensitivity: Double
    /// Decibels added to the sound's level before it is mapped to intensity. The level maps
    /// linearly in decibels from −48 dBFS (intensity 0) to 0 dBFS (intensity 1), so +6 makes a sound
    /// peaking at −6 dBFS reach full strength, and −6 leaves 6 dB of headroom. Default 0.
    public var gain: Double
    /// The sound frequencies, in hertz, mapped onto sharpness: a spectral centroid at the lower
    /// bound is sharpness 0, at the upper bound 1, logarithmically between. Only content inside the
    /// band counts. Default: ``Actuator/defaultBand`` of the actuator.
    public var band: ClosedRange<Double>
    /// The shortest continuous event, in seconds: louder stretches that are shorter are left to the
    /// transients, and quiet gaps that are shorter do not split an event. Default 0.05.
    public var minimumEventLength: Double
    /// The shortest time between two transients, in seconds; of hits closer together the first is
    /// kept. Default 0.05.
    public var minimumOnsetGap: Double
    /// How far, in intensity or sharpness units, a simplified curve may stray from the measured one.
    /// Default 0.04: a few points per second for most sounds.
    public var curveTolerance: Double
    /// The longest sound analysed, in seconds; a longer one is refused before any work. Default 120.
    public var maximumDuration: Double

    /// The options for `actuator`, with the defaults above.
    public init(actuator: Actuator = .rumble) {
        sensitivity = 0.5
        gain = 0
        band = actuator.defaultBand
        minimumEventLength = 0.05
        minimumOnsetGap = 0.05
        curveTolerance = 0.04
        maximumDuration = 120
    }

    /// The valid range of each option, as the error for a value outside it says.
    public static let sensitivityRange = 0.0...1.0
    /// Gains from −48 dB to +48 dB: beyond either, every sound maps to nothing or to full strength.
    public static let gainRange = -48.0...48.0
    /// Band limits from 10 Hz to 20 kHz.
    public static let frequencyRange = 10.0...20_000.0
    /// Event lengths from 20 ms to 10 s.
    public static let minimumEventLengthRange = 0.02...10.0
    /// Onset gaps from 20 ms (at most 50 transients a second) to 10 s.
    public static let minimumOnsetGapRange = 0.02...10.0
    /// Tolerances from 0.001 to 0.5.
    public static let curveToleranceRange = 0.001...0.5
    /// Durations up to 600 s, the longest pattern (`PatternLimits`).
    public static let maximumDurationRange = 0.0...600.0

    /// Checks every option against its range; the error names the option and the range.
    public func validate() throws(SoundAnalysisError) {
        func check(_ name: String, _ value: Double, _ range: ClosedRange<Double>) throws(SoundAnalysisError) {
            guard range.contains(value) else {
                throw SoundAnalysisError(.invalidOption(name: name, value: value, range: range))
            }
        }
        try check("sensitivity", sensitivity, Self.sensitivityRange)
        try check("gain", gain, Self.gainRange)
        try check("band lower bound", band.lowerBound, Self.frequencyRange)
        try check("band upper bound", band.upperBound, Self.frequencyRange)
        guard band.upperBound >= band.lowerBound * 2 else {
            throw SoundAnalysisError(.bandTooNarrow(band))
        }
        try check("minimum event length", minimumEventLength, Self.minimumEventLengthRange)
        try check("minimum onset gap", minimumOnsetGap, Self.minimumOnsetGapRange)
        try check("curve tolerance", curveTolerance, Self.curveToleranceRange)
        try check("maximum duration", maximumDuration, Self.maximumDurationRange)
    }
}
