import HapticsPatterns

/// `haptics demo`: plays the whole vocabulary, one item after the other.
struct DemoCommand: Command {
    static let name = "demo"
    static let abstract = "Play every feedback of the vocabulary in turn."
    static let usage = ["demo [--device <path|name|simulated>] [--profile <name|file>] [--trace <file.json>] [--json]"]
    static let options = DeviceOptions.help + [TraceFile.help, HelpRow("--json", "One JSON object per line.")]

    var device = DeviceOptions()
    var json = false
    var tracePath: String?

    init(arguments: [String]) throws(CommandLineError) {
        var cursor = ArgumentCursor(arguments)
        while let item = cursor.next() {
            if try device.parse(item, &cursor) { continue }
            switch item {
            case .option("json", nil): json = true
            case let .option("trace", inline): tracePath = try cursor.value(for: "trace", inline: inline)
            case let .option(name, _): throw .usage("unknown option --\(name)")
            case let .shortOption(letter): throw .usage("unknown option -\(letter)")
            case let .positional(value): throw .usage("unexpected argument '\(value)'")
            }
        }
    }

    func run(_ context: CommandContext) throws(CommandLineError) -> Int32 {
        var failed = 0
        let trace = tracePath.map(TraceFile.init)
        if let path = try device.realDevice(context) {
            for feedback in Feedback.vocabulary {
                let run = try DeviceRun.play(.feedback(feedback), on: device.output(path: path), trace: trace)
                PlayCommand.report(run, name: feedback.name, json: json, context: context)
                if !run.outcome.isScheduled { failed += 1 }
            }
        } else {
            for feedback in Feedback.vocabulary {
                let run = try SimulatedRun.play(.feedback(feedback), profile: device.profile, trace: trace)
                try PlayCommand.report(run, name: feedback.name, json: json, plotPath: nil, wavPath: nil, context: context)
                if !json { context.console.line() }
                if !run.outcome.isScheduled { failed += 1 }
            }
        }
        try trace?.write(context)
        return failed == 0 ? ExitStatus.success : ExitStatus.failure
    }
}
