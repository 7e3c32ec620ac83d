/// A bound on the memory a pattern's sound may hold — its decoded waveforms at the output rate and
/// what its voices keep to make their frames as they play — and how much of it is still free.
///
/// A pattern file and the sounds beside it are untrusted: without a bound, a few kilobytes of
/// header fields and durations could ask for gigabytes. Two bounds apply (see docs/internals/audio.md,
/// "Memory"): each pattern's own, ``patternLimit`` (32 MiB) by default, and the engine's,
/// ``engineLimit`` (128 MiB), shared by the sound of every pattern player it holds and its cues.
/// Exceeding one is a located ``AudioPatternError`` when the pattern is loaded, never a failure
/// at play time.
public struct AudioMemoryBudget: Sendable, Hashable, CustomStringConvertible {
    /// Whose budget it is, as an error names it.
    public enum Scope: String, Sendable, Hashable {
        /// One pattern's own.
        case pattern
        /// Shared by everything an engine holds.
        case engine
    }

    /// Whose budget it is.
    public var scope: Scope
    /// The whole budget, in bytes.
    public var limit: Int
    /// What is still free of it, in bytes (at most ``limit``).
    public var available: Int

    /// Creates a budget of `limit` bytes of which `available` (all by default) are free.
    public init(scope: Scope, limit: Int, available: Int? = nil) {
        precondition(limit >= 0, "a memory budget cannot be negative")
        self.scope = scope
        self.limit = limit
        self.available = min(limit, max(0, available ?? limit))
    }

    /// A pattern's own budget by default: 32 MiB.
    ///
    /// About what the largest waveform file (`WAVReader.maximumFileSize`, 16 MiB) of 16-bit audio
    /// takes decoded to `Float`s at the output rate: 87 s of 48 kHz stereo. Feedback sounds are
    /// tens of kilobytes; what needs more is a recording, not a pattern's sound.
    public static let patternLimit = 32 << 20

    /// An engine's budget by default: 128 MiB, four patterns at their own limit.
    ///
    /// A game holds a few dozen patterns of tens of kilobytes each; 128 MiB leaves them room many
    /// times over while a handful of hostile or mistaken bundles cannot take the process's memory.
    public static let engineLimit = 128 << 20

    /// A pattern's own budget of ``patternLimit``, all free.
    public static var pattern: AudioMemoryBudget { AudioMemoryBudget(scope: .pattern, limit: patternLimit) }

    /// `the pattern's sound budget of 32 MiB` (bytes when not a whole number of MiB).
    public var description: String {
        let size = limit % (1 << 20) == 0 ? "\(limit >> 20) MiB" : "\(limit) bytes"
        return "the \(scope.rawValue)'s sound budget of \(size)"
    }
}
