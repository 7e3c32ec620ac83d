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
        let audioEvents = pattern.events.indices.filter { pattern.events[$0].kind == .audioCustom }
        guard let first = audioEvents.first else {
            return AudioPattern(pattern: pattern, sampleRate: outputRate, clips: [:])
        }
        func failure(_ problem: AudioPatternError.Problem, at index: Int) -> AudioPatternError {
            let event = pattern.events[index]
            return AudioPatternError(patternFile: patternPath, eventIndex: index, eventTime: event.time,
                                     waveformPath: event.waveformPath ?? "", problem: problem)
        }
        let locator: WaveformLocator
        do {
            locator = try WaveformLocator(patternPath: patternPath)
        } catch {
            throw failure(error, at: first)
        }
        var clips: [Int: AudioClip] = [:]
        // Keyed by where the kernel found each file, so two names for one file read it once.
        var byFile: [[UInt8]: AudioClip] = [:]
        for index in audioEvents {
            do {
                let file = try locator.locate(pattern.events[index].waveformPath ?? "")
                if let clip = byFile[file.path] {
                    clips[index] = clip
                    continue
                }
                let clip = try readClip(file)
                byFile[file.path] = clip
                clips[index] = clip
            } catch {
                throw failure(error, at: index)
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

    /// Reads the waveform the locator found: opened for reading through the descriptor it was
    /// found and checked with, never by name again, and refused when it is larger than
    /// ``maximumWaveformSize`` bytes.
    private func readClip(_ file: borrowing ConfinedFile) throws(AudioPatternError.Problem) -> AudioClip {
        let bytes: [UInt8]
        do {
            bytes = try file.readContents(maximumSize: maximumWaveformSize)
        } catch {
            throw WaveformLocator.problem(error)
        }
        let samples: WAVSamples
        do {
            samples = try WAVReader.decode(bytes)
        } catch {
            throw .invalidWAV(error.problem)
        }
        return AudioClip(samples, outputRate: outputRate, resampler: resampler)
    }
}
