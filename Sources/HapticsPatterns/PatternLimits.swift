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

    /// Creates limits.
    public init(
        maximumFileSize: Int = 4 * 1024 * 1024,
        maximumNestingDepth: Int = 32,
        maximumEventCount: Int = 10_000,
        maximumControlPointsPerCurve: Int = 4_096,
        recommendedControlPointsPerCurve: Int = 16,
        maximumDuration: Double = 600
    ) {
        self.maximumFileSize = maximumFileSize
        self.maximumNestingDepth = maximumNestingDepth
        self.maximumEventCount = maximumEventCount
        self.maximumControlPointsPerCurve = maximumControlPointsPerCurve
        self.recommendedControlPointsPerCurve = recommendedControlPointsPerCurve
        self.maximumDuration = maximumDuration
    }

    /// 4 MiB, depth 32, 10,000 entries, 4,096 control points per curve (warning above 16), 600 s.
    public static let `default` = PatternLimits()
}
