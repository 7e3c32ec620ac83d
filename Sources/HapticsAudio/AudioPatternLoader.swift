import HapticsPatterns
import HapticsSystem

/// Loads the sound of a pattern at load time, so that a missing or bad waveform is an error then —
/// located at the pattern file and the event — and never silence at play time.
public struct AudioPatternLoader: Sendable {
    /// The rate clips are converted to.
    public var outputRate: Int
    /// The converter used when a file's rate differs from ``outputRate``.
    public var resampler: Resampler
    /// The largest waveform file read, in bytes (``WAVReader/maximumFileSize`` by default).
    public var maximumWaveformSize: Int

    /// Creates a loader.
    public init(outputRate: Int = 48_000, resampler: Resampler = Resampler(),
                maximumWaveformSize: Int = WAVReader.maximumFileSize) {
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

    /// Reads the waveform at `path`, the real path the locator resolved: opened once, without
    /// following a symbolic link, and checked (a regular file, at most ``maximumWaveformSize``
    /// bytes) on that descriptor, never by name again.
    private func readClip(_ path: String) throws(AudioPatternError.Problem) -> AudioClip {
        let samples: WAVSamples
        do {
            samples = try WAVReader.read(contentsOf: path, maximumSize: maximumWaveformSize,
                                         followingSymbolicLinks: false)
        } catch {
            switch error.problem {
            case let .unreadable(.systemCall(failure))
                where failure.errno == .noSuchFileOrDirectory || failure.errno == .notDirectory:
                throw .missing
            case let .unreadable(.systemCall(failure)): throw .unreadable(reason: failure.errno.message)
            case .unreadable(.notRegularFile): throw .notRegularFile
            case let .unreadable(.tooLarge(size, limit)): throw .tooLarge(size: size, limit: limit)
            case let .unreadable(other): throw .unreadable(reason: other.description)
            default: throw .invalidWAV(error.problem)
            }
        }
        return AudioClip(samples, outputRate: outputRate, resampler: resampler)
    }
}
