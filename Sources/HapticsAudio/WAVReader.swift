import Foundation

/// Reads RIFF/WAVE files. Chunks other than `fmt ` and `data` are skipped; `WAVE_FORMAT_EXTENSIBLE`
/// is read through its subformat.
///
/// Two views of the same parse: ``decode(_:)`` gives 16-bit PCM as exact integers (any channel
/// count), ``decodeSamples(_:)`` gives 8/16/24-bit PCM and 32-bit float, mono or stereo, as `Float`
/// in −1…1 — what sound cues are made of.
public enum WAVReader {
    /// Decodes the bytes of a 16-bit PCM WAV file to exact integer samples.
    public static func decode(_ bytes: [UInt8]) throws(WAVError) -> WAVAudio {
        let chunk = try parse(bytes)
        let format = chunk.format
        guard format.tag == 1, format.bits == 16 else {
            throw .unsupportedEncoding(formatTag: format.tag, bitsPerSample: format.bits)
        }
        let frameBytes = 2 * format.channels
        let count = chunk.data.count / frameBytes * format.channels
        var samples = [Int16]()
        samples.reserveCapacity(count)
        for index in 0..<count {
            samples.append(Int16(bitPattern: read(UInt16.self, bytes, at: chunk.data.lowerBound + 2 * index)))
        }
        return WAVAudio(sampleRate: format.sampleRate, channelCount: format.channels, samples: samples)
    }

    /// Reads and decodes the 16-bit PCM WAV file at `path`.
    public static func read(contentsOf path: String) throws(WAVError) -> WAVAudio {
        try decode(readBytes(path))
    }

    /// The format fields of a `fmt ` chunk, with the extensible subformat already applied.
    struct Format {
        var tag: UInt16
        var channels: Int
        var sampleRate: Int
        var blockAlign: Int
        var bits: UInt16
    }

    /// Walks the chunks up to `data`: the format and the byte range of the samples.
    static func parse(_ bytes: [UInt8]) throws(WAVError) -> (format: Format, data: Range<Int>) {
        guard bytes.count >= 12, tag(bytes, at: 0) == "RIFF", tag(bytes, at: 8) == "WAVE" else {
            throw .notWAVE
        }
        var format: Format?
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
                let blockAlign = Int(read(UInt16.self, bytes, at: body + 12))
                let bits = read(UInt16.self, bytes, at: body + 14)
                // WAVE_FORMAT_EXTENSIBLE carries the real format tag at the start of its subformat GUID.
                if formatTag == 0xFFFE {
                    guard size >= 40 else { throw .invalidFormat("extensible format in \(size) bytes, need 40") }
                    formatTag = read(UInt16.self, bytes, at: body + 24)
                }
                guard channels > 0 else { throw .invalidFormat("0 channels") }
                guard sampleRate > 0 else { throw .invalidFormat("sample rate 0") }
                format = Format(tag: formatTag, channels: channels, sampleRate: sampleRate,
                                blockAlign: blockAlign, bits: bits)
            case "data":
                guard let format else { throw .missingChunk("fmt ") }
                return (format, body..<body + size)
            default:
                break
            }
            // Chunks are padded to an even size.
            offset = body + size + size % 2
        }
        throw .missingChunk(format == nil ? "fmt " : "data")
    }

    static func readBytes(_ path: String) throws(WAVError) -> [UInt8] {
        do {
            return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw .unreadable(path: path, reason: error.localizedDescription)
        }
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
