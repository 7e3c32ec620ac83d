#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import HapticsPatterns

/// Loads the sound of a pattern at load time, so that a missing or bad waveform is an error then —
/// located at the pattern file and the event — and never silence at play time.
public struct AudioPatternLoader: Sendable {
    /// The rate clips are converted to.
    public var outputRate: Int
    /// The converter used when a file's rate differs from ``outputRate``.
    public var resampler: Resampler
    /// The largest waveform file read, in bytes.
    public var maximumWaveformSize: Int

    /// Creates a loader.
    public init(outputRate: Int = 48_000, resampler: Resampler = Resampler(), maximumWaveformSize: Int = 16 << 20) {
        self.outputRate = outputRate
        self.resampler = resampler
        self.maximumWaveformSize = maximumWaveformSize
    }

    /// Loads every `AudioCustom` waveform of `pattern`, read from `patternPath`: each
    /// `EventWaveformPath` is resolved relative to the pattern file's folder and confined to it.
    /// A file used by several events is read once.
    public func load(pattern: Pattern, patternPath: String) throws(AudioPatternError) -> AudioPattern {
        var clips: [Int: AudioClip] = [:]
        var byFile: [String: AudioClip] = [:]
        var locator: WaveformLocator?
        for (index, event) in pattern.events.enumerated() where event.kind == .audioCustom {
            let written = event.waveformPath ?? ""
            func failure(_ problem: AudioPatternError.Problem) -> AudioPatternError {
                AudioPatternError(patternFile: patternPath, eventIndex: index, eventTime: event.time,
                                  waveformPath: written, problem: problem)
            }
            do {
                if locator == nil { locator = try WaveformLocator(patternPath: patternPath) }
                let resolved = try locator!.resolve(written)
                if let clip = byFile[resolved] {
                    clips[index] = clip
                    continue
                }
                let clip = try readClip(resolved)
                byFile[resolved] = clip
                clips[index] = clip
            } catch {
                throw failure(error)
            }
        }
        return AudioPattern(pattern: pattern, sampleRate: outputRate, clips: clips)
    }

    /// Reads `pattern`'s file at `patternPath` with the pattern decoder, then loads its sound.
    public func load(contentsOf patternPath: String) throws(AudioLoadError) -> AudioPattern {
        let decoded: DecodedPattern
        do {
            decoded = try decodePattern(contentsOf: patternPath)
        } catch {
            throw .pattern(error)
        }
        do {
            return try load(pattern: decoded.pattern, patternPath: patternPath)
        } catch {
            throw .sound(error)
        }
    }

    private func readClip(_ path: String) throws(AudioPatternError.Problem) -> AudioClip {
        var status = stat()
        guard stat(path, &status) == 0 else { throw .unreadable(reason: String(cString: strerror(errno))) }
        guard (status.st_mode & S_IFMT) == S_IFREG else { throw .notRegularFile }
        let size = Int(status.st_size)
        guard size <= maximumWaveformSize else { throw .tooLarge(size: size, limit: maximumWaveformSize) }
        let bytes: [UInt8]
        do {
            bytes = try WAVReader.readBytes(path)
        } catch {
            if case let .unreadable(_, reason) = error { throw .unreadable(reason: reason) }
            throw .invalidWAV(error)
        }
        do {
            return AudioClip(try WAVReader.decodeSamples(bytes), outputRate: outputRate, resampler: resampler)
        } catch {
            throw .invalidWAV(error)
        }
    }
}
