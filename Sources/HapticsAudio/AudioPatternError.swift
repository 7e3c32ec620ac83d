import HapticsPatterns
import HapticsSystem

/// Why the sound of a pattern could not be loaded, located at the pattern file and the event.
///
/// `description`: `sounds/hit.ahap: AudioCustom event at 0.25 s (events[2]): EventWaveformPath
/// "../x.wav" leaves the pattern's folder`; `hum.ahap: AudioContinuous event at 2 s (events[5]):
/// its sound needs 296 bytes, more than the 100 bytes left of the engine's sound budget of 128 MiB`.
/// The fields hold the text as given (the file name) and as written in the pattern (the waveform
/// path); the description escapes both, and the resolved path, for the terminal (`PrintableText`).
public struct AudioPatternError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the waveform an event names.
    public enum Problem: Error, Sendable, Hashable {
        /// The event has no `EventWaveformPath` (or an empty one).
        case noWaveformPath
        /// The path is absolute; waveforms are named relative to the pattern.
        case absolutePath
        /// The path climbs out of the pattern's folder with `..`.
        case escapesFolder
        /// The path resolves, through a symbolic link, to a file outside the pattern's folder;
        /// `resolved` is where the kernel found it (its bytes read as UTF-8).
        case symbolicLinkEscapes(resolved: String)
        /// No file at the path.
        case missing
        /// The path names something that is not a regular file.
        case notRegularFile
        /// The file is larger than the loader's limit.
        case tooLarge(size: Int, limit: Int)
        /// The file exists but cannot be read.
        case unreadable(reason: String)
        /// The file is not a WAV file the engine plays (the problem is located in the file: chunk,
        /// byte offset, frame).
        case invalidWAV(WAVError.Problem)
        /// The event's sound — its waveform decoded and converted to the output rate, or what its
        /// voice keeps — needs `needed` bytes, more than `budget.available`, what the events before
        /// it left of `budget`.
        case overBudget(needed: Int, budget: AudioMemoryBudget)
    }

    /// The pattern file, as given to the loader.
    public var patternFile: String
    /// The event's index in `Pattern.events`.
    public var eventIndex: Int
    /// The event's time in seconds.
    public var eventTime: Double
    /// The path as written in the pattern (empty for an `AudioContinuous` event).
    public var waveformPath: String
    /// The event's kind: `AudioCustom`, or `AudioContinuous` (which only a budget can refuse).
    public var eventKind: PatternEvent.Kind
    /// What is wrong.
    public var problem: Problem
    /// Where the event's `EventWaveformPath` is in the pattern file, when the decoder said.
    public var location: SourceLocation?

    /// Creates an error.
    public init(patternFile: String, eventIndex: Int, eventTime: Double, waveformPath: String, problem: Problem,
                eventKind: PatternEvent.Kind = .audioCustom, location: SourceLocation? = nil) {
        self.location = location
        self.patternFile = patternFile
        self.eventIndex = eventIndex
        self.eventTime = eventTime
        self.waveformPath = waveformPath
        self.problem = problem
        self.eventKind = eventKind
    }

    /// `file:line:column: AudioCustom event at T s: EventWaveformPath "p" <what is wrong>` (the
    /// line and column of its `EventWaveformPath`), or `file: AudioCustom event at T s (events[i]):
    /// …` when the location is not known; outside text escaped.
    public var description: String {
        let subject = location.map { "\(PrintableText.escaped(patternFile)):\($0.line):\($0.column): \(eventKind.rawValue) event at \(NumberText.shortest(eventTime)) s: " }
            ?? "\(PrintableText.escaped(patternFile)): \(eventKind.rawValue) event at \(NumberText.shortest(eventTime)) s (events[\(eventIndex)]): "
        let path = "EventWaveformPath \"\(PrintableText.escaped(waveformPath))\""
        switch problem {
        case .noWaveformPath: return subject + "EventWaveformPath is missing or empty"
        case .absolutePath: return subject + "\(path) is absolute; name the file relative to the pattern's folder"
        case .escapesFolder: return subject + "\(path) leaves the pattern's folder"
        case let .symbolicLinkEscapes(resolved):
            return subject + "\(path) leaves the pattern's folder through a symbolic link (to \(PrintableText.escaped(resolved)))"
        case .missing: return subject + "\(path): no such file"
        case .notRegularFile: return subject + "\(path) is not a regular file"
        case let .tooLarge(size, limit):
            return subject + "\(path) is \(size) bytes, more than the limit of \(limit) bytes"
        case let .unreadable(reason): return subject + "\(path) cannot be read: \(PrintableText.escaped(reason))"
        case let .invalidWAV(error): return subject + "\(path): \(error)"
        case let .overBudget(needed, budget):
            let sound = eventKind == .audioCustom ? "\(path): its sound" : "its sound"
            return subject + "\(sound) needs \(needed) bytes, more than the \(budget.available) bytes left of \(budget)"
        }
    }
}
