extension WAVReader {
    /// Decodes 8/16/24-bit PCM or 32-bit float WAV bytes, mono or stereo, to `Float` samples.
    ///
    /// Integers are scaled by their full scale (8-bit: (x − 128) / 128, 16-bit: x / 32 768,
    /// 24-bit: x / 8 388 608), so −full scale is exactly −1; floats are taken as they are, except that
    /// NaN and infinities are refused (they would poison a mix).
    public static func decodeSamples(_ bytes: [UInt8]) throws(WAVError) -> WAVSamples {
        let (format, data) = try parse(bytes)
        guard let encoding = WAVSampleEncoding(formatTag: format.tag, bitsPerSample: format.bits) else {
            throw .unsupportedSampleFormat(formatTag: format.tag, bitsPerSample: format.bits)
        }
        guard format.channels <= 2 else { throw .unsupportedChannelCount(format.channels) }
        let frameBytes = encoding.bytesPerSample * format.channels
        guard format.blockAlign == frameBytes else {
            throw .invalidFormat("block align \(format.blockAlign), expected \(frameBytes) for "
                + "\(format.channels) channel(s) of \(encoding)")
        }
        let count = data.count / frameBytes * format.channels
        var samples = [Float](repeating: 0, count: count)
        let base = data.lowerBound
        switch encoding {
        case .unsignedInteger8:
            for index in 0..<count { samples[index] = (Float(bytes[base + index]) - 128) / 128 }
        case .signedInteger16:
            for index in 0..<count {
                samples[index] = Float(Int16(bitPattern: read(UInt16.self, bytes, at: base + 2 * index))) / 32_768
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
                let value = Float(bitPattern: read(UInt32.self, bytes, at: base + 4 * index))
                guard value.isFinite else { throw .nonFiniteSample(frame: index / format.channels) }
                samples[index] = value
            }
        }
        return WAVSamples(sampleRate: format.sampleRate, channelCount: format.channels, encoding: encoding,
                          samples: samples)
    }

    /// Reads and decodes the WAV file at `path` to `Float` samples; errors name the file.
    public static func readSamples(contentsOf path: String) throws(WAVFileError) -> WAVSamples {
        do {
            return try decodeSamples(readBytes(path))
        } catch {
            throw WAVFileError(path: path, problem: error)
        }
    }
}
