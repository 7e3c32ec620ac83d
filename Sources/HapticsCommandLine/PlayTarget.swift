import Foundation
import HapticsPatterns

/// What `play` and `plot` were asked for: a vocabulary item or a pattern file.
enum PlayTarget {
    /// A vocabulary item (`impact.light:0.5`).
    case feedback(Feedback)
    /// A decoded pattern file.
    case file(path: String, pattern: Pattern, warnings: [PatternDiagnostic])

    /// A file path when the argument names an existing file or ends in a pattern extension,
    /// otherwise a feedback name.
    init(argument: String) throws(CommandLineError) {
        if argument.hasSuffix(".ahap") || argument.hasSuffix(".haptic") || argument.contains("/") || FileManager.default.fileExists(atPath: argument) {
            do {
                let decoded = try decodePattern(contentsOf: argument)
                self = .file(path: argument, pattern: decoded.pattern, warnings: decoded.warnings)
            } catch {
                throw .failure(error.description)
            }
            return
        }
        do {
            self = .feedback(try Feedback(parsing: argument))
        } catch {
            throw .usage(error.description)
        }
    }

    /// The pattern to play.
    var pattern: Pattern {
        switch self {
        case let .feedback(feedback): return feedback.canonicalPattern
        case let .file(_, pattern, _): return pattern
        }
    }

    /// How to name it in output.
    var name: String {
        switch self {
        case let .feedback(feedback): return feedback.name
        case let .file(path, _, _): return path
        }
    }
}
