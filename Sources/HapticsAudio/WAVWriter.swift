import HapticsSystem

/// Writes 16-bit PCM audio as a RIFF/WAVE file: a 44-byte header (`RIFF`, `WAVE`, a 16-byte `fmt `
/// chunk, `data`) followed by little-endian samples.
public enum WAVWriter {
    /// The bytes of a WAV file holding `samples` (interleaved when `channelCount > 1`).
    ///
    /// - Precondition: `samples.count` is a multiple of `channelCount`, and the data fits a RIFF
    ///   file (under 4 GiB).
    public static func encode(samples: [Int16], sampleRate: Int, channelCount: Int = 1) -> [UInt8] {
        precondition(channelCount > 0 && samples.count % channelCount == 0,
                     "\(samples.count) samples do not make whole frames of \(channelCount) channels")
        let dataSize = samples.count * 2
        precondition(dataSize <= Int(UInt32.max) - 36, "WAV data of \(dataSize) bytes exceeds the RIFF limit")
        var bytes: [UInt8] = []
        bytes.reserveCapacity(44 + dataSize)
        bytes += Array("RIFF".utf8)
        append(UInt32(36 + dataSize), to: &bytes)
        bytes += Array("WAVE".utf8)
        bytes += Array("fmt ".utf8)
        append(UInt32(16), to: &bytes)                              // fmt chunk size
        append(UInt16(1), to: &bytes)                               // WAVE_FORMAT_PCM
        append(UInt16(channelCount), to: &bytes)
        append(UInt32(sampleRate), to: &bytes)
        append(UInt32(sampleRate * channelCount * 2), to: &bytes)   // bytes per second
        append(UInt16(channelCount * 2), to: &bytes)                // bytes per frame
        append(UInt16(16), to: &bytes)                              // bits per sample
        bytes += Array("data".utf8)
        append(UInt32(dataSize), to: &bytes)
        for sample in samples {
            append(UInt16(bitPattern: sample), to: &bytes)
        }
        return bytes
    }

    /// Writes `samples` as a WAV file at `path`, replacing any file there atomically: a reader sees
    /// the old file or the whole new one, never a part.
    ///
    /// The write goes through `FileDescriptor.writeContents(_:toFile:permissions:)`.
    public static func write(samples: [Int16], sampleRate: Int, channelCount: Int = 1, to path: String) throws(WAVError) {
        let bytes = encode(samples: samples, sampleRate: sampleRate, channelCount: channelCount)
        do {
            try FileDescriptor.writeContents(bytes, toFile: path)
        } catch {
            throw WAVError(.unwritable(error), path: path)
        }
    }

    static func append<Integer: FixedWidthInteger>(_ value: Integer, to bytes: inout [UInt8]) {
        var little = value.littleEndian
        withUnsafeBytes(of: &little) { bytes += $0 }
    }
}
