import HapticsPatterns
import HapticsSystem

/// Loads the sound of a pattern at load time, so that a missing or bad waveform is an error then —
/// located at the pattern file and the event — and never silence at play time.
///
/// What the sound will hold is counted as it is loaded and must fit ``budgets``: each waveform
/// decoded and converted to ``outputRate`` (refused from its header, before it is decoded, when its
/// samples cannot fit; its decoded samples are held beside the converted clip while it is
/// converted, and must fit as well), and for every audio event the fixed description its voice
/// keeps — a tone or a looped clip is made as it plays, so an event's duration costs nothing here.
/// The first event that does not fit is a located error (``AudioPatternError/Problem/overBudget(needed:budget:)``).
public struct AudioPatternLoader: Sendable {
    /// The rate clips are converted to.
    public var outputRate: Int
    /// The converter used when a file's rate differs from ``outputRate``.
    public var resampler: Resampler
    /// The largest waveform file read, in bytes (``WAVReader/maximumFileSize`` by default).
    public var maximumWaveformSize: Int
    /// The budgets the pattern's sound must fit, each with what is still free of it: the pattern's
    /// own (``AudioMemoryBudget/pattern``, 32 MiB, by default) and, when loading for an engine, the
    /// engine's share.
    public var budgets: [AudioMemoryBudget]

    /// Creates a loader for an output at `outputRate`, within ``Resampler/supportedRates``.
    public init(outputRate: Int = 48_000, resampler: Resampler = Resampler(),
                maximumWaveformSize: Int = WAVReader.maximumFileSize, budgets: [AudioMemoryBudget] = [.pattern]) {
        precondition(Resampler.supportedRates.contains(outputRate),
                     "an output rate of \(outputRate) Hz is outside \(Resampler.supportedRates) Hz")
        self.outputRate = outputRate
        self.resampler = resampler
        self.maximumWaveformSize = maximumWaveformSize
        self.budgets = budgets
    }

    /// Loads every `AudioCustom` waveform of `pattern`, read from `patternPath`: each
    /// `EventWaveformPath` is resolved relative to the pattern file's folder and confined to it.
    /// A file used by several events is read once (and counted once). `waveformPathLocations`
    /// (the decoder's, by event index) locates an error at the event's `EventWaveformPath`.
    public func load(pattern: Pattern, patternPath: String,
                     waveformPathLocations: [Int: SourceLocation] = [:]) throws(AudioPatternError) -> AudioPattern {
        var clips: [Int: AudioClip] = [:]
        // Keyed by where the kernel found each file, so two names for one file read it once.
        var byFile: [[UInt8]: AudioClip] = [:]
        var locator: WaveformLocator?
        var ledger = _SoundLedger(budgets: budgets)
        var first = true
        for (index, event) in pattern.events.enumerated() where !event.kind.isHaptic {
            let written = event.kind == .audioCustom ? event.waveformPath ?? "" : ""
            func failure(_ problem: AudioPatternError.Problem) -> AudioPatternError {
                AudioPatternError(patternFile: patternPath, eventIndex: index, eventTime: event.time,
                                  waveformPath: written, problem: problem, eventKind: event.kind,
                                  location: waveformPathLocations[index])
            }
            do {
                // What the voice keeps to make its frames, whatever the event's duration; the
                // pattern's control curves come with the first voice.
                try ledger.charge(AudioVoice.programByteCount + (first ? _ControlCurves.byteCount(for: pattern) : 0))
                first = false
                guard event.kind == .audioCustom else { continue }
                if locator == nil { locator = try WaveformLocator(patternPath: patternPath) }
                let file = try locator!.locate(written)
                if let clip = byFile[file.path] {
                    clips[index] = clip
                    continue
                }
                let clip = try readClip(file, within: &ledger)
                byFile[file.path] = clip
                clips[index] = clip
            } catch {
                throw failure(error)
            }
        }
        return AudioPattern(pattern: pattern, sampleRate: outputRate, clips: clips)
    }

    /// Reads `pattern`'s file at `patternPath` with the pattern decoder, then loads its sound; a
    /// waveform's error is located at the line and column of its event's `EventWaveformPath`.
    public func load(contentsOf patternPath: String) throws(AudioLoadError) -> AudioPattern {
        let decoded: DecodedPattern
        do {
            decoded = try decodePattern(contentsOf: patternPath)
        } catch {
            throw .pattern(error)
        }
        do {
            return try load(pattern: decoded.pattern, patternPath: patternPath,
                            waveformPathLocations: decoded.waveformPathLocations)
        } catch {
            throw .sound(error)
        }
    }

    /// Reads the waveform the locator found: opened for reading through the descriptor it was
    /// found and checked with, never by name again, and refused when it is larger than
    /// ``maximumWaveformSize`` bytes.
    ///
    /// The decoded samples must fit what `ledger` has left (they are refused from the header
    /// otherwise), and so must the clip at the output rate, which is charged.
    private func readClip(
        _ file: borrowing ConfinedFile, within ledger: inout _SoundLedger
    ) throws(AudioPatternError.Problem) -> AudioClip {
        let bytes: [UInt8]
        do {
            bytes = try file.readContents(maximumSize: maximumWaveformSize)
        } catch {
            throw WaveformLocator.problem(error)
        }
        let samples: WAVSamples
        do {
            samples = try WAVReader.decode(bytes, maximumSampleCount: ledger.available / MemoryLayout<Float>.stride)
        } catch {
            if case let .tooManySamples(count, _, _) = error.problem {
                throw ledger.refusal(count * MemoryLayout<Float>.stride)
            }
            throw .invalidWAV(error.problem)
        }
        return try convert(samples, within: &ledger)
    }

    /// `samples` at the output rate, once the converted clip's size (known before converting) is
    /// charged to `ledger`.
    private func convert(_ samples: WAVSamples, within ledger: inout _SoundLedger) throws(AudioPatternError.Problem)
        -> AudioClip {
        let frames = samples.frameCount
        // The converter's length: ⌈frames × output rate / input rate⌉.
        let converted = samples.sampleRate == outputRate ? frames
            : (frames * outputRate + samples.sampleRate - 1) / samples.sampleRate
        try ledger.charge(converted * samples.channelCount * MemoryLayout<Float>.stride)
        return AudioClip(samples, outputRate: outputRate, resampler: resampler)
    }
}

/// What a pattern's sound has taken of its budgets so far, while it is loaded.
struct _SoundLedger {
    let budgets: [AudioMemoryBudget]
    private(set) var used = 0

    init(budgets: [AudioMemoryBudget]) {
        self.budgets = budgets
    }

    /// The most bytes one more charge may take.
    var available: Int {
        max(0, budgets.map { $0.available - used }.min() ?? .max)
    }

    /// Takes `bytes`, or refuses them naming the first budget they do not fit.
    mutating func charge(_ bytes: Int) throws(AudioPatternError.Problem) {
        guard bytes <= available else { throw refusal(bytes) }
        used += bytes
    }

    /// The error for `bytes` that do not fit: the first budget too small, with what it has left.
    func refusal(_ bytes: Int) -> AudioPatternError.Problem {
        var budget = budgets.first { bytes > $0.available - used } ?? budgets[0]
        budget.available = max(0, budget.available - used)
        return .overBudget(needed: bytes, budget: budget)
    }
}
