import HapticsMeasurement
import HapticsAudio
import HapticsPatterns
import HapticsSystem

/// `haptics validate`: checks pattern files as `play` would load them — the pattern and the sounds
/// it names — and reports located errors and warnings. Every format is accepted, recognised by
/// content (AHAP, `.haptic` clips, feedbackd themes with their parents).
struct ValidateCommand: Command {
    static let name = "validate"
    static let abstract = "Check pattern files and their sounds; exit 0 when all load, 1 otherwise."
    static let usage = ["validate <file>... [--theme-path <folder>]... [--json]"]
    static let options = [
        HelpRow("<file>...", "Pattern files to check: AHAP, .haptic clips or feedbackd themes, told apart by content."),
        ThemeSearchPath.help,
        HelpRow("--json", "One JSON object per file."),
    ]
    static let discussion = """
        Each file is decoded, then every AudioCustom waveform it names is read and decoded as play
        reads it: confined to the file's folder, within the same limits. A feedbackd theme is decoded
        with its parent chain, each parent <parent-name>.json found as feedbackd finds it (the
        --theme-path folders, $XDG_CONFIG_HOME/feedbackd/themes, each $XDG_DATA_DIRS/feedbackd/themes,
        then the theme's own folder), the chain is shown with the file of each parent, and every
        event's vibrations are made into a pattern at the full level. A FIFO, a device or a file over the size limit is refused
        without waiting or reading it. Errors and warnings go to standard error as
        file:line:column: path: message, with control characters escaped.
        """

    var files: [String] = []
    var json = false
    var themeFolders: [String] = []

    init(arguments: [String]) throws(CommandLineError) {
        var cursor = ArgumentCursor(arguments)
        while let item = cursor.next() {
            switch item {
            case .option("json", nil): json = true
            case let .option("theme-path", inline): themeFolders.append(try cursor.value(for: "theme-path", inline: inline))
            case let .option(name, _): throw .usage("unknown option --\(name)")
            case let .shortOption(letter): throw .usage("unknown option -\(letter)")
            case let .positional(value): files.append(value)
            }
        }
        if files.isEmpty { throw .usage("missing the files to validate") }
    }

    func run(_ context: CommandContext) throws(CommandLineError) -> Int32 {
        var failures = 0
        let search = ThemeSearchPath(environment: context.environment, extra: themeFolders)
        for file in files {
            var line = JSONLine(record: "validation")
            line.add("file", file)
            if Self.isTheme(file) {
                if !Self.validateTheme(file, search: search, line: line, json: json, context: context) { failures += 1 }
                continue
            }
            let decoded: DecodedPattern
            do {
                decoded = try Self.load(file, context: context)
            } catch {
                failures += 1
                Self.report(failure: error.description, line: line, json: json, context: context)
                continue
            }
            // What play refuses is no valid pattern.
            guard !decoded.pattern.events.isEmpty else {
                failures += 1
                Self.report(failure: PlayTarget.emptyMessage(file), line: line, json: json, context: context)
                continue
            }
            let format = decoded.format
            let haptic = decoded.pattern.events.filter(\.kind.isHaptic).count
            let audio = decoded.pattern.events.count - haptic
            if json {
                line.add("valid", true)
                line.add("format", format.rawValue)
                line.add("events", decoded.pattern.events.count)
                line.add("warnings", decoded.warnings.count)
                line.add("duration_s", decoded.pattern.duration, digits: 3)
                context.console.line(line.text)
            } else {
                let kind = format == .ahap ? "" : format.displayName + ", "
                context.console.line("\(PrintableText.escaped(file)): ok (\(kind)\(haptic) haptic, \(audio) audio event\(audio == 1 ? "" : "s"), \(JSONLine.number(decoded.pattern.duration, digits: 3)) s, \(decoded.warnings.count) warning\(decoded.warnings.count == 1 ? "" : "s"))")
            }
        }
        return failures == 0 ? ExitStatus.success : ExitStatus.failure
    }

    /// Whether `file` reads as a feedbackd theme; anything unreadable is left to the pattern path,
    /// which reports why.
    static func isTheme(_ file: String) -> Bool {
        guard let bytes = try? FileDescriptor.readContents(ofFile: file, maximumSize: PatternLimits.default.maximumFileSize) else {
            return false
        }
        return PatternFormat.recognize(bytes) == .feedbackdTheme
    }

    /// Decodes a theme and its parents and renders every event at the full level, as `play --theme`
    /// and `convert --event` would; prints its line and returns whether it is valid.
    static func validateTheme(_ file: String, search: ThemeSearchPath, line: JSONLine, json: Bool, context: CommandContext) -> Bool {
        var line = line
        do throws(CommandLineError) {
            let theme = try search.theme(file)
            for warning in theme.warnings { context.console.errorLine(warning.description) }
            let plans = theme.events.map { theme.plan(for: $0, level: .full) }
            let felt = plans.filter { !$0.haptic.isEmpty }.count
            if json {
                line.add("valid", true)
                line.add("format", PatternFormat.feedbackdTheme.rawValue)
                line.add("name", theme.name)
                line.add("parents", theme.chain.count - 1)
                line.add("chain", raw: "[" + theme.chain.map { link in
                    var object = JSONLine()
                    object.add("name", link.name)
                    object.add("file", link.file)
                    return object.text
                }.joined(separator: ",") + "]")
                line.add("events", plans.count)
                line.add("haptic_events", felt)
                line.add("warnings", theme.warnings.count)
                context.console.line(line.text)
            } else {
                let parents = theme.chain.dropFirst().map { "\"\(PrintableText.escaped($0.name))\" (\(PrintableText.escaped($0.file)))" }
                context.console.line(
                    "\(PrintableText.escaped(file)): ok (feedbackd theme \"\(PrintableText.escaped(theme.name))\""
                        + (parents.isEmpty ? "" : " over \(parents.joined(separator: ", "))")
                        + ", \(plans.count) event\(plans.count == 1 ? "" : "s"), \(felt) felt at full, "
                        + "\(theme.warnings.count) warning\(theme.warnings.count == 1 ? "" : "s"))")
            }
            return true
        } catch {
            report(failure: error.description, line: line, json: json, context: context)
            return false
        }
    }

    /// Says why a file is not valid: on standard error, and as its record with `--json`.
    static func report(failure message: String, line: JSONLine, json: Bool, context: CommandContext) {
        context.console.errorLine(message)
        guard json else { return }
        var line = line
        line.add("valid", false)
        line.add("error", message)
        context.console.line(line.text)
    }

    /// Decodes `file` (its warnings printed as they are found) and loads its sound with the loader
    /// the engine uses at play time, so what passes here is what `play` accepts.
    static func load(_ file: String, context: CommandContext) throws(AudioLoadError) -> DecodedPattern {
        let decoded: DecodedPattern
        do {
            decoded = try decodePattern(contentsOf: file)
        } catch {
            throw .pattern(error)
        }
        for warning in decoded.warnings { context.console.errorLine(warning.description) }
        do {
            _ = try AudioPatternLoader().load(pattern: decoded.pattern, patternPath: file,
                                              waveformPathLocations: decoded.waveformPathLocations)
        } catch {
            throw .sound(error)
        }
        return decoded
    }
}
