import Foundation
import HapticsPatterns
import HapticsSystem

/// What `play` and `plot` were asked for: a vocabulary item, a pattern file or a feedbackd event.
enum PlayTarget {
    /// A vocabulary item (`impact.light:0.5`).
    case feedback(Feedback)
    /// A decoded pattern file.
    case file(path: String, pattern: Pattern, warnings: [PatternDiagnostic])
    /// The haptics derived from a sound (`.wav`), with the sound as its `AudioCustom` event.
    case sound(path: String, pattern: Pattern)
    /// A feedbackd event of a loaded theme at a level; its sounds come from `soundFolder`.
    case themeEvent(event: String, theme: FeedbackdTheme, level: FeedbackdLevel, soundFolder: String)

    /// A sound when the argument ends in `.wav` (analysed with `sound`'s options), a file path when
    /// it names an existing file or ends in a pattern extension, otherwise a feedback name.
    init(argument: String, sound: SoundOptions = SoundOptions()) throws(CommandLineError) {
        if SoundOptions.isSound(argument) {
            let analysis = try sound.analyze(argument).analysis
            let name = argument.lastIndex(of: "/").map { String(argument[argument.index(after: $0)...]) } ?? argument
            self = .sound(path: argument, pattern: analysis.pattern(waveformPath: name))
            return
        }
        try sound.refuseUnlessSound(argument)
        if argument.hasSuffix(".ahap") || argument.hasSuffix(".haptic") || argument.contains("/") || FileManager.default.fileExists(atPath: argument) {
            do {
                let decoded = try decodePattern(contentsOf: argument)
                self = .file(path: argument, pattern: decoded.pattern, warnings: decoded.warnings)
            } catch {
                throw .failure(error.description)
            }
            if case let .file(_, pattern, _) = self, pattern.events.isEmpty { throw .failure(Self.emptyMessage(argument)) }
            return
        }
        do {
            self = .feedback(try Feedback(parsing: argument))
        } catch {
            throw .usage(error.description)
        }
    }

    /// Why a pattern file without events is refused, by `play` and by `validate` alike.
    static func emptyMessage(_ file: String) -> String {
        "\(PrintableText.escaped(file)): the pattern has no events: nothing to play"
    }

    /// The event `argument` of the theme `themeArgument` (a file, or a name on `search`), at
    /// `level`, its parents found along `search`. A vocabulary name the theme has no event of
    /// stands for its feedbackd event (`selection`: `key-pressed`).
    init(event argument: String, themeArgument: String, search: ThemeSearchPath, level: FeedbackdLevel,
         soundFolder: String?) throws(CommandLineError) {
        let themePath = try search.file(themeArgument)
        let theme = try search.theme(themePath)
        var event = argument
        if !theme.events.contains(argument), let item = try? Feedback(parsing: argument), let mapped = item.feedbackdEvent {
            event = mapped
        }
        let folder = themePath.lastIndex(of: "/").map { String(themePath[..<$0]) } ?? "."
        self = .themeEvent(event: event, theme: theme, level: level, soundFolder: soundFolder ?? (folder.isEmpty ? "/" : folder))
    }

    /// The pattern to play (a feedbackd event's felt part).
    var pattern: Pattern {
        switch self {
        case let .feedback(feedback): return feedback.canonicalPattern
        case let .file(_, pattern, _): return pattern
        case let .sound(_, pattern): return pattern
        case let .themeEvent(event, theme, level, _): return theme.plan(for: event, level: level).pattern
        }
    }

    /// How to name it in output.
    var name: String {
        switch self {
        case let .feedback(feedback): return feedback.name
        case let .file(path, _, _): return path
        case let .sound(path, _): return path
        case let .themeEvent(event, _, _, _): return event
        }
    }

    /// Warnings to print before playing: a file's or a theme's.
    var warnings: [PatternDiagnostic] {
        switch self {
        case .feedback, .sound: return []
        case let .file(_, _, warnings): return warnings
        case let .themeEvent(_, theme, _, _): return theme.warnings
        }
    }
}
