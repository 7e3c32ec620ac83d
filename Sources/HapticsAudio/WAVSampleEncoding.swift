/// How the samples of a WAV file are stored.
public enum WAVSampleEncoding: Sendable, Hashable, CustomStringConvertible {
    /// 8-bit unsigned PCM (silence is 128), format tag 1.
    case unsignedInteger8
    /// 16-bit signed little-endian PCM, format tag 1.
    case signedInteger16
    /// 24-bit signed little-endian PCM packed in 3 bytes, format tag 1.
    case signedInteger24
    /// 32-bit IEEE float, format tag 3.
    case float32

    /// Bytes per sample of one channel.
    public var bytesPerSample: Int {
        switch self {
        case .unsignedInteger8: return 1
        case .signedInteger16: return 2
        case .signedInteger24: return 3
        case .float32: return 4
        }
    }

    /// `8-bit PCM`, `16-bit PCM`, `24-bit PCM`, `32-bit float`.
    public var description: String {
        switch self {
        case .unsignedInteger8: return "8-bit PCM"
        case .signedInteger16: return "16-bit PCM"
        case .signedInteger24: return "24-bit PCM"
        case .float32: return "32-bit float"
        }
    }

    /// The encoding of a format tag and sample size, or `nil` when it is not one of the four.
    init?(formatTag: UInt16, bitsPerSample: UInt16) {
        switch (formatTag, bitsPerSample) {
        case (1, 8): self = .unsignedInteger8
        case (1, 16): self = .signedInteger16
        case (1, 24): self = .signedInteger24
        case (3, 32): self = .float32
        default: return nil
        }
    }
}
