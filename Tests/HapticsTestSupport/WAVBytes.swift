/// The bytes of a WAV file with a 16-byte `fmt ` chunk, written out field by field so that tests of
/// the reader do not depend on the writer. `blockAlign` defaults to `channels × bits / 8`.
public func wavBytes(formatTag: UInt16, channels: UInt16, sampleRate: UInt32, bits: UInt16, data: [UInt8],
                     blockAlign: UInt16? = nil) -> [UInt8] {
    func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) } }
    let align = blockAlign ?? channels * bits / 8
    var bytes = Array("RIFF".utf8) + le32(UInt32(36 + data.count)) + Array("WAVE".utf8)
    bytes += Array("fmt ".utf8) + le32(16) + le16(formatTag) + le16(channels) + le32(sampleRate)
    // The byte rate wraps as a hostile header's would (a rate of 4.29 GHz cannot be multiplied out).
    bytes += le32(sampleRate &* UInt32(align)) + le16(align) + le16(bits)
    bytes += Array("data".utf8) + le32(UInt32(data.count)) + data
    return bytes
}

/// The bytes of a 16-bit PCM mono WAV file of `samples`.
public func pcm16WAV(_ samples: [Int16], sampleRate: UInt32 = 48_000) -> [UInt8] {
    wavBytes(formatTag: 1, channels: 1, sampleRate: sampleRate, bits: 16,
             data: samples.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)] })
}
