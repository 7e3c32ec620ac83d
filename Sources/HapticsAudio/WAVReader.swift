import HapticsSystem

/// Reads RIFF/WAVE files: 8/16/24-bit PCM and 32-bit float, mono or stereo, 4–384 kHz, as `Float`
/// samples in −1…1 — what sound cues and pattern waveforms are made of.
///
/// Chunks other than `fmt ` and `data` are skipped; `WAVE_FORMAT_EXTENSIBLE` is read through its
/// subformat. Integers are scaled by their full scale (8-bit: (x − 128) / 128, 16-bit: x / 32 768,
/// 24-bit: x / 8 388 608), so −full scale is exactly −1; floats are taken as they are, except that
/// NaN and infinities are refused (they would poison a mix).
public enum WAVReader {
    /// The largest file ``read(contentsOf:maximumSize:followingSymbolicLinks:maximumSampleCount:)``
    /// reads unless told otherwise: 16 MiB.
    ///
    /// A cue or a pattern's waveform is a fraction of a second (a few tens of kilobytes); 16 MiB is
    /// about 87 s of 48 kHz 16-bit stereo, far more than any feedback sound, yet small enough that
    /// naming the wrong file (a recording, a film) fails at once instead of filling memory: the
    /// whole file is held, then decoded to `Float`s twice its size.
    public static let maximumFileSize = 16 << 20

    /// The sample rates the reader accepts: 4 kHz to 384 kHz.
    ///
    /// Every rate audio files are made at lies inside (8 kHz telephony and 11.025 kHz game sounds to
    /// 384 kHz studio masters); a header outside it is broken or hostile. The bound also bounds the
    /// conversion to the output rate: at most 96 output frames per input frame, or 96 input frames
    /// per output frame, so neither the converted clip nor the converter's filter can be made huge
    /// by one header field.
    public static let supportedSampleRates = 4_000...384_000

    /// The channel counts the reader accepts: mono and stereo, what the engine mixes (its output
    /// is stereo; a mono clip is panned, a stereo one balanced).
    public static let supportedChannelCounts = 1...2

    /// Decodes the bytes of a WAV file. Errors say what is wrong and where (chunk, byte offset,
    /// frame); they name no file (see ``read(contentsOf:maximumSize:followingSymbolicLinks:maximumSampleCount:)``).
    ///
    /// The header is checked before any sample is decoded: the rate within
    /// ``supportedSampleRates``, the channels within ``supportedChannelCounts``, one of the four
    /// encodings, a block size that matches them, every chunk inside the file, and at most
    /// `maximumSampleCount` samples (all channels) in the `data` chunk, so a caller with a memory
    /// budget can refuse a file before it is decoded.
    public static func decode(_ bytes: [UInt8], maximumSampleCount: Int = .max) throws(WAVError) -> WAVSamples {
        let (format, data) = try parse(bytes)
        let encoding = format.encoding
        let frameBytes = encoding.bytesPerSample * format.channels
        let count = data.count / frameBytes * format.channels
        guard count <= maximumSampleCount else {
            throw WAVError(.tooManySamples(count: count, limit: maximumSampleCount, offset: data.lowerBound - 8))
        }
        var samples = [Float](repeating: 0, count: count)
        let base = data.lowerBound
        switch encoding {
        case .unsignedInteger8:
            for index in 0..<count { samples[index] = (Float(bytes[base + index]) - 128) / 128 }
        case .signedInteger16:
            for index in 0..<count {
                samples[index] = Float(Int16(bitPattern: littleEndian(UInt16.self, bytes, at: base + 2 * index))) / 32_768
            }
        case .signedInteger24:
            for index in 0..<count {
                let offset = base + 3 * index
                // Place the three bytes at the top of an Int32, then shift back to sign-extend.
                let raw = Int32(bitPattern: UInt32(bytes[offset]) << 8 | UInt32(bytes[offset + 1]) << 16
                    | UInt32(bytes[offset + 2]) << 24) >> 8
                samples[index] = Float(raw) / 8_388_608
            }
        case .float32:
            for index in 0..<count {
                let value = Float(bitPattern: littleEndian(UInt32.self, bytes, at: base + 4 * index))
                guard value.isFinite else { throw WAVError(.nonFiniteSample(frame: index / format.channels)) }
                samples[index] = value
            }
        }
        return WAVSamples(sampleRate: format.sampleRate, channelCount: format.channels, encoding: encoding,
                          samples: samples)
    }

    /// Reads and decodes the WAV file at `path`, refusing one larger than `maximumSize` bytes (or
    /// not a regular file); every error names the file, as given.
    ///
    /// The file is opened once and checked and read on that descriptor (see
    /// `FileDescriptor.readContents(ofFile:maximumSize:followingSymbolicLinks:)`).
    ///
    /// `maximumSampleCount` refuses, before decoding, a file with more samples (see
    /// ``decode(_:maximumSampleCount:)``).
    public static func read(
        contentsOf path: String, maximumSize: Int = maximumFileSize, followingSymbolicLinks: Bool = true,
        maximumSampleCount: Int = .max
    ) throws(WAVError) -> WAVSamples {
        let bytes: [UInt8]
        do {
            bytes = try FileDescriptor.readContents(ofFile: path, maximumSize: maximumSize,
                                                    followingSymbolicLinks: followingSymbolicLinks)
        } catch {
            throw WAVError(.unreadable(error), path: path)
        }
        do {
            return try decode(bytes, maximumSampleCount: maximumSampleCount)
        } catch {
            throw WAVError(error.problem, path: path)
        }
    }

    /// The format of a `fmt ` chunk, checked: a supported encoding, rate and channel count.
    struct Format {
        /// Where the chunk starts in the file.
        var offset: Int
        var encoding: WAVSampleEncoding
        var channels: Int
        var sampleRate: Int
    }

    /// Walks the chunks up to `data`: the format and the byte range of the samples.
    static func parse(_ bytes: [UInt8]) throws(WAVError) -> (format: Format, data: Range<Int>) {
        guard bytes.count >= 12, tag(bytes, at: 0) == "RIFF", tag(bytes, at: 8) == "WAVE" else {
            throw WAVError(.notWAVE)
        }
        var format: Format?
        var offset = 12
        while offset + 8 <= bytes.count {
            let id = tag(bytes, at: offset)
            let size = Int(littleEndian(UInt32.self, bytes, at: offset + 4))
            let body = offset + 8
            let available = bytes.count - body
            guard size <= available else {
                throw WAVError(.truncatedChunk(id, offset: offset, declared: size, available: available))
            }
            switch id {
            case "fmt ":
                guard size >= 16 else { throw WAVError(.invalidFormat("\(size) bytes, need at least 16", offset: offset)) }
                var formatTag = littleEndian(UInt16.self, bytes, at: body)
                let channels = Int(littleEndian(UInt16.self, bytes, at: body + 2))
                let sampleRate = Int(littleEndian(UInt32.self, bytes, at: body + 4))
                let blockAlign = Int(littleEndian(UInt16.self, bytes, at: body + 12))
                let bits = littleEndian(UInt16.self, bytes, at: body + 14)
                // WAVE_FORMAT_EXTENSIBLE carries the real format tag at the start of its subformat GUID.
                if formatTag == 0xFFFE {
                    guard size >= 40 else {
                        throw WAVError(.invalidFormat("extensible format in \(size) bytes, need 40", offset: offset))
                    }
                    formatTag = littleEndian(UInt16.self, bytes, at: body + 24)
                }
                guard let encoding = WAVSampleEncoding(formatTag: formatTag, bitsPerSample: bits) else {
                    throw WAVError(.unsupportedSampleFormat(formatTag: formatTag, bitsPerSample: bits, offset: offset))
                }
                guard channels > 0 else { throw WAVError(.invalidFormat("0 channels", offset: offset)) }
                guard supportedChannelCounts.contains(channels) else {
                    throw WAVError(.unsupportedChannelCount(channels, offset: offset))
                }
                guard supportedSampleRates.contains(sampleRate) else {
                    throw WAVError(.unsupportedSampleRate(sampleRate, offset: offset))
                }
                let frameBytes = encoding.bytesPerSample * channels
                guard blockAlign == frameBytes else {
                    throw WAVError(.invalidFormat("block align \(blockAlign), expected \(frameBytes) for "
                        + "\(channels) channel(s) of \(encoding)", offset: offset))
                }
                format = Format(offset: offset, encoding: encoding, channels: channels, sampleRate: sampleRate)
            case "data":
                guard let format else { throw WAVError(.missingChunk("fmt ")) }
                return (format, body..<body + size)
            default:
                break
            }
            // Chunks are padded to an even size.
            offset = body + size + size % 2
        }
        throw WAVError(.missingChunk(format == nil ? "fmt " : "data"))
    }

    static func tag(_ bytes: [UInt8], at offset: Int) -> String {
        String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
    }

    static func littleEndian<Integer: FixedWidthInteger>(_: Integer.Type, _ bytes: [UInt8], at offset: Int) -> Integer {
        var value = Integer.zero
        for index in 0..<MemoryLayout<Integer>.size {
            value |= Integer(truncatingIfNeeded: bytes[offset + index]) << (8 * index)
        }
        return value
    }
}
