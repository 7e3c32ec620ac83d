/// Why a WAV file could not be read or written.
public enum WAVError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file does not start with `RIFF` … `WAVE`.
    case notWAVE
    /// A chunk the decoder needs is missing (`fmt `, `data`).
    case missingChunk(String)
    /// A chunk claims more bytes than the file holds.
    case truncatedChunk(String, offset: Int, declared: Int, available: Int)
    /// The `fmt ` chunk is malformed.
    case invalidFormat(String)
    /// The encoding is not 16-bit integer PCM.
    case unsupportedEncoding(formatTag: UInt16, bitsPerSample: UInt16)
    /// The encoding is none of 8/16/24-bit PCM or 32-bit float (``WAVReader/decodeSamples(_:)``).
    case unsupportedSampleFormat(formatTag: UInt16, bitsPerSample: UInt16)
    /// More than two channels (``WAVReader/decodeSamples(_:)`` reads mono and stereo).
    case unsupportedChannelCount(Int)
    /// A 32-bit float sample is NaN or infinite.
    case nonFiniteSample(frame: Int)
    /// The file could not be read.
    case unreadable(path: String, reason: String)
    /// The file could not be written.
    case unwritable(path: String, reason: String)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .notWAVE:
            return "not a WAV file: expected \"RIFF\" and \"WAVE\" in the first 12 bytes"
        case let .missingChunk(id):
            return "WAV file has no \"\(id)\" chunk"
        case let .truncatedChunk(id, offset, declared, available):
            return "WAV chunk \"\(id)\" at byte \(offset) declares \(declared) bytes but only \(available) remain"
        case let .invalidFormat(reason):
            return "WAV \"fmt \" chunk is invalid: \(reason)"
        case let .unsupportedEncoding(formatTag, bitsPerSample):
            return "WAV encoding not supported: format tag \(formatTag), \(bitsPerSample) bits per sample "
                + "(expected 16-bit PCM, format tag 1)"
        case let .unsupportedSampleFormat(formatTag, bitsPerSample):
            return "WAV encoding not supported: format tag \(formatTag), \(bitsPerSample) bits per sample "
                + "(expected 8-, 16- or 24-bit PCM, format tag 1, or 32-bit float, format tag 3)"
        case let .unsupportedChannelCount(count):
            return "WAV file has \(count) channels (expected 1 or 2)"
        case let .nonFiniteSample(frame):
            return "WAV float sample at frame \(frame) is not a finite number"
        case let .unreadable(path, reason):
            return "cannot read \(path): \(reason)"
        case let .unwritable(path, reason):
            return "cannot write \(path): \(reason)"
        }
    }
}
