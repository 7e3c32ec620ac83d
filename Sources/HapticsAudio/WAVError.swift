import HapticsSystem

/// Why a WAV file could not be read or written: what is wrong, and in which file.
///
/// `description`: `cues/tick.wav: WAV chunk "data" at byte 36 declares 100 bytes but only 2 remain`;
/// bytes decoded in memory have no file, and their description is the problem alone. The file name
/// and the chunk ids (four bytes of the file) are printed escaped (`PrintableText`): a chunk named
/// `"\u{1B}[2J"` is shown, not obeyed.
public struct WAVError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, located in the file where that applies (chunk, byte offset, frame).
    public enum Problem: Sendable, Hashable, CustomStringConvertible {
        /// The file does not start with `RIFF` … `WAVE`.
        case notWAVE
        /// A chunk the reader needs is missing (`fmt `, `data`).
        case missingChunk(String)
        /// The chunk at byte `offset` claims more bytes than the file holds.
        case truncatedChunk(String, offset: Int, declared: Int, available: Int)
        /// The `fmt ` chunk at byte `offset` is malformed.
        case invalidFormat(String, offset: Int)
        /// The `fmt ` chunk at byte `offset` names an encoding that is none of 8/16/24-bit PCM or
        /// 32-bit float.
        case unsupportedSampleFormat(formatTag: UInt16, bitsPerSample: UInt16, offset: Int)
        /// The `fmt ` chunk at byte `offset` declares more channels than the reader reads
        /// (``WAVReader/supportedChannelCounts``: mono and stereo).
        case unsupportedChannelCount(Int, offset: Int)
        /// The `fmt ` chunk at byte `offset` declares a sample rate outside
        /// ``WAVReader/supportedSampleRates`` (4–384 kHz).
        case unsupportedSampleRate(Int, offset: Int)
        /// The `data` chunk at byte `offset` holds more samples (all channels) than the caller
        /// allows (a memory budget), so it is not decoded.
        case tooManySamples(count: Int, limit: Int, offset: Int)
        /// A 32-bit float sample is NaN or infinite.
        case nonFiniteSample(frame: Int)
        /// The file could not be read: missing, not a regular file, too large, no permission…
        case unreadable(FileReadError)
        /// The file could not be written.
        case unwritable(SystemCallError)

        /// A one-line explanation, phrased to follow a file name.
        public var description: String {
            switch self {
            case .notWAVE:
                return "not a WAV file: expected \"RIFF\" and \"WAVE\" in the first 12 bytes"
            case let .missingChunk(id):
                return "WAV file has no \"\(PrintableText.escaped(id))\" chunk"
            case let .truncatedChunk(id, offset, declared, available):
                return "WAV chunk \"\(PrintableText.escaped(id))\" at byte \(offset) declares \(declared) bytes but only \(available) remain"
            case let .invalidFormat(reason, offset):
                return "WAV \"fmt \" chunk at byte \(offset) is invalid: \(reason)"
            case let .unsupportedSampleFormat(formatTag, bitsPerSample, offset):
                return "WAV \"fmt \" chunk at byte \(offset): encoding not supported: format tag \(formatTag), "
                    + "\(bitsPerSample) bits per sample "
                    + "(expected 8-, 16- or 24-bit PCM, format tag 1, or 32-bit float, format tag 3)"
            case let .unsupportedChannelCount(count, offset):
                return "WAV \"fmt \" chunk at byte \(offset): \(count) channels (expected 1 or 2)"
            case let .unsupportedSampleRate(rate, offset):
                let range = WAVReader.supportedSampleRates
                return "WAV \"fmt \" chunk at byte \(offset): sample rate \(rate) Hz "
                    + "(expected \(range.lowerBound) to \(range.upperBound) Hz)"
            case let .tooManySamples(count, limit, offset):
                return "WAV chunk \"data\" at byte \(offset) holds \(count) samples, more than the limit of \(limit)"
            case let .nonFiniteSample(frame):
                return "WAV float sample at frame \(frame) is not a finite number"
            case let .unreadable(error):
                return error.description
            case let .unwritable(error):
                return "cannot write the file: \(error.call): \(error.errno.message)"
            }
        }
    }

    /// What is wrong.
    public var problem: Problem
    /// The file, as given to the reader or writer; `nil` for bytes decoded in memory.
    public var path: String?

    /// Creates an error about `path` (or about bytes in memory when `nil`).
    public init(_ problem: Problem, path: String? = nil) {
        self.problem = problem
        self.path = path
    }

    /// `path: problem`, or the problem alone for bytes decoded in memory; the path escaped.
    public var description: String {
        guard let path else { return problem.description }
        return "\(PrintableText.escaped(path)): \(problem)"
    }
}
