import HapticsMeasurement
import HapticsPatterns

/// `haptics list`: the feedback vocabulary and what each item is.
struct ListCommand: Command {
    static let name = "list"
    static let abstract = "List the feedback vocabulary."
    static let usage = ["list [--json]"]
    static let options = [HelpRow("--json", "One JSON object per line.")]

    var json = false

    init(arguments: [String]) throws(CommandLineError) {
        json = try JSONAndPositionals(arguments, maximumPositionals: 0).json
    }

    func run(_ context: CommandContext) throws(CommandLineError) -> Int32 {
        for feedback in Feedback.vocabulary {
            let pattern = feedback.canonicalPattern
            let haptic = pattern.events.filter(\.kind.isHaptic)
            let durationMs = pattern.duration * 1000
            if json {
                var line = JSONLine(record: "feedback")
                line.add("feedback", feedback.name)
                line.add("events", haptic.count)
                line.add("duration_ms", durationMs, digits: 1)
                context.console.line(line.text)
            } else {
                let padded = feedback.name + String(repeating: " ", count: max(1, 22 - feedback.name.count))
                context.console.line("\(padded)\(haptic.count) event\(haptic.count == 1 ? " " : "s")  \(JSONLine.number(durationMs, digits: 1)) ms")
            }
        }
        return ExitStatus.success
    }
}
