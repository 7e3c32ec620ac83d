import HapticsPatterns

/// `haptics validate`: decodes pattern files and reports located errors and warnings.
struct ValidateCommand: Command {
    static let name = "validate"
    static let abstract = "Check pattern files; exit 0 when all decode, 1 otherwise."
    static let usage = ["validate <file.ahap>... [--json]"]
    static let options = [
        HelpRow("<file.ahap>...", "Pattern files to check."),
        HelpRow("--json", "One JSON object per file."),
    ]
    static let discussion = "Errors and warnings go to standard error as file:line:column: path: message."

    var files: [String] = []
    var json = false

    init(arguments: [String]) throws(CommandLineError) {
        let parsed = try JSONAndPositionals(arguments, maximumPositionals: .max, missing: "missing the files to validate")
        json = parsed.json
        files = parsed.positionals
    }

    func run(_ context: CommandContext) throws(CommandLineError) -> Int32 {
        var failures = 0
        for file in files {
            var line = JSONLine()
            line.add("file", file)
            do {
                let decoded = try decodePattern(contentsOf: file)
                for warning in decoded.warnings { context.console.errorLine(warning.description) }
                let haptic = decoded.pattern.events.filter(\.kind.isHaptic).count
                let audio = decoded.pattern.events.count - haptic
                if json {
                    line.add("valid", true)
                    line.add("events", decoded.pattern.events.count)
                    line.add("warnings", decoded.warnings.count)
                    line.add("duration_s", decoded.pattern.duration, digits: 3)
                    context.console.line(line.text)
                } else {
                    context.console.line("\(file): ok (\(haptic) haptic, \(audio) audio event\(audio == 1 ? "" : "s"), \(JSONLine.number(decoded.pattern.duration, digits: 3)) s, \(decoded.warnings.count) warning\(decoded.warnings.count == 1 ? "" : "s"))")
                }
            } catch {
                failures += 1
                context.console.errorLine(error.description)
                if json {
                    line.add("valid", false)
                    line.add("error", error.description)
                    context.console.line(line.text)
                }
            }
        }
        return failures == 0 ? ExitStatus.success : ExitStatus.failure
    }
}
