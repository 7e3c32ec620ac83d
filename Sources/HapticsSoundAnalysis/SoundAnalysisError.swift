import HapticsAudio
import HapticsSystem

/// Why a sound could not be analysed: what is wrong, and in which file.
///
/// `description`: `hit.wav: sound is 130.000 s long, more than the limit of 120 s`; a sound given
/// in memory has no file, and its description is the problem alone.
public struct SoundAnalysisError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public enum Problem: Sendable, Hashable, CustomStringConvertible {
        /// The WAV file could not be read (its own error says where in the file).
        case wav(WAVError.Problem)
        /// The sound is longer than ``SoundAnalysisOptions/maximumDuration``.
        case tooLong(seconds: Double, limit: Double)
        /// An option is outside its range (or not a number).
        case invalidOption(name: String, value: Double, range: ClosedRange<Double>)
        /// The pattern would hold more entries (events, parameters and curves) than a pattern file
        /// may (`PatternLimits.maximumEventCount`), so it could not be read back.
        case tooManyEvents(count: Int, limit: Int)
        /// The band's upper bound is less than an octave above its lower bound.
        case bandTooNarrow(ClosedRange<Double>)

        /// A one-line explanation, phrased to follow a file name.
        public var description: String {
            switch self {
            case let .wav(problem):
                return problem.description
            case let .tooLong(seconds, limit):
                return "sound is \(Self.seconds(seconds)) s long, more than the limit of \(Self.number(limit)) s"
            case let .invalidOption(name, value, range):
                return "\(name) \(Self.number(value)) is outside \(Self.number(range.lowerBound))…\(Self.number(range.upperBound))"
            case let .tooManyEvents(count, limit):
                return "the pattern would hold \(count) events, parameters and curves, more than the limit of \(limit) "
                    + "(raise the minimum onset gap or the minimum event length, or cut the sound)"
            case let .bandTooNarrow(band):
                return "band \(Self.number(band.lowerBound))…\(Self.number(band.upperBound)) Hz is narrower than an octave "
                    + "(the upper bound must be at least twice the lower)"
            }
        }

        /// Seconds with three decimals.
        static func seconds(_ value: Double) -> String {
            let millis = Int((value * 1000).rounded())
            let fraction = String(millis % 1000)
            return "\(millis / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
        }

        /// A value as written: integers without a fraction.
        static func number(_ value: Double) -> String {
            if value.isFinite, value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
            return String(value)
        }
    }

    /// What is wrong.
    public var problem: Problem
    /// The file, as given; `nil` for a sound given in memory.
    public var path: String?

    /// Creates an error about `path` (or about a sound in memory when `nil`).
    public init(_ problem: Problem, path: String? = nil) {
        self.problem = problem
        self.path = path
    }

    /// `path: problem`, or the problem alone; the path escaped.
    public var description: String {
        guard let path else { return problem.description }
        return "\(PrintableText.escaped(path)): \(problem)"
    }
}
