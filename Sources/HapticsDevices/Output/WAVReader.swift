import Foundation

/// Reads 16-bit PCM WAV files (`WAVE_FORMAT_PCM`, or `WAVE_FORMAT_EXTENSIBLE` with a PCM subformat),
/// any channel count. Chunks other than `fmt ` and `data` are skipped.
public enum WAVReader {
    /// Decodes the bytes of a WAV file.
    public static func decode(_ bytes: [UInt8]) throws(WAVError) -> WAVAudio {
        guard bytes.count >= 12, tag(bytes, at: 0) == "RIFF", tag(bytes, at: 8) == "WAVE" else {
            throw .notWAVE
        }
        var format: (tag: UInt16, channels: Int, sampleRate: Int, bits: UInt16)?
        var offset = 12
        while offset + 8 <= bytes.count {
            let id = tag(bytes, at: offset)
            let size = Int(read(UInt32.self, bytes, at: offset + 4))
            let body = offset + 8
            let available = bytes.count - body
            guard size <= available else {
                throw .truncatedChunk(id, offset: offset, declared: size, available: available)
            }
            switch id {
            case "fmt ":
                guard size >= 16 else { throw .invalidFormat("\(size) bytes, need at least 16") }
                var formatTag = read(UInt16.self, bytes, at: body)
                let channels = Int(read(UInt16.self, bytes, at: body + 2))
                let sampleRate = Int(read(UInt32.self, bytes, at: body + 4))
                let bits = read(UInt16.self, bytes, at: body + 14)
                // WAVE_FORMAT_EXTENSIBLE carries the real format tag at the start of its subformat GUID.
                if formatTag == 0xFFFE {
                    guard size >= 40 else { throw .invalidFormat("extensible format in \(size) bytes, need 40") }
                    formatTag = read(UInt16.self, bytes, at: body + 24)
                }
                guard channels > 0 else { throw .invalidFormat("0 channels") }
                guard sampleRate > 0 else { throw .invalidFormat("sample rate 0") }
                format = (formatTag, channels, sampleRate, bits)
            case "data":
                guard let format else { throw .missingChunk("fmt ") }
                guard format.tag == 1, format.bits == 16 else {
                    throw .unsupportedEncoding(formatTag: format.tag, bitsPerSample: format.bits)
                }
                let frameBytes = 2 * format.channels
                let count = size / frameBytes * format.channels
                var samples = [Int16]()
                samples.reserveCapacity(count)
                for index in 0..<count {
                    samples.append(Int16(bitPattern: read(UInt16.self, bytes, at: body + 2 * index)))
                }
                return WAVAudio(sampleRate: format.sampleRate, channelCount: format.channels, samples: samples)
            default:
                break
            }
            // Chunks are padded to an even size.
            offset = body + size + size % 2
        }
        throw .missingChunk(format == nil ? "fmt " : "data")
    }

    /// Reads and decodes the WAV file at `path`.
    public static func read(contentsOf path: String) throws(WAVError) -> WAVAudio {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .unreadable(path: path, reason: error.localizedDescription)
        }
        return try decode([UInt8](data))
    }

    static func tag(_ bytes: [UInt8], at offset: Int) -> String {
        String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
    }

    static func read<Integer: FixedWidthInteger>(_: Integer.Type, _ bytes: [UInt8], at offset: Int) -> Integer {
        var value = Integer.zero
        for index in 0..<MemoryLayout<Integer>.size {
            value |= Integer(truncatingIfNeeded: bytes[offset + index]) << (8 * index)
        }
        return value
    }
}
