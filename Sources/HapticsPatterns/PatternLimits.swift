/// Bounds that keep a hostile or broken pattern file from exhausting memory or time.
///
/// Each bound, when exceeded, is a located `PatternError` that names the limit.
public struct PatternLimits: Sendable, Hashable {
    /// The largest file accepted, in bytes.
    public var maximumFileSize: Int
    /// How deeply arrays and objects may nest (a valid AHAP file needs 6).
    public var maximumNestingDepth: Int
    /// How many entries the `Pattern` array may hold (events, parameters and curves together).
    public var maximumEventCount: Int
    /// How many control points one `ParameterCurve` may hold.
    public var maximumControlPointsPerCurve: Int
    /// Control points per curve beyond which a warning is given (Apple documents 16 per curve).
    public var recommendedControlPointsPerCurve: Int
    /// The latest time, in seconds, at which any event, parameter or curve may end.
    public var maximumDuration: Double
    /// The summed durations, in seconds, of the pattern's `HapticContinuous` events: rendering
    /// samples every continuous event at each tick of a device's control interval, so its work
    /// grows with this sum, not with the pattern's length (3,600 s is six 600-second layers).
    public var maximumHapticTime: Double

    /// Creates limits.
    public init(
        maximumFileSize: Int = 4 * 1024 * 1024,
        maximumNestingDepth: Int = 32,
        maximumEventCount: Int = 10_000,
        maximumControlPointsPerCurve: Int = 4_096,
        recommendedControlPointsPerCurve: Int = 16,
        maximumDuration: Double = 600,
        maximumHapticTime: Double = 3_600
    ) {
        self.maximumFileSize = maximumFileSize
        self.maximumNestingDepth = maximumNestingDepth
        self.maximumEventCount = maximumEventCount
        self.maximumControlPointsPerCurve = maximumControlPointsPerCurve
        self.recommendedControlPointsPerCurve = recommendedControlPointsPerCurve
        self.maximumDuration = maximumDuration
        self.maximumHapticTime = maximumHapticTime
    }

    /// 4 MiB, depth 32, 10,000 entries, 4,096 control points per curve (warning above 16), 600 s,
    /// 3,600 s of haptic continuous events in all.
    public static let `default` = PatternLimits()
}
