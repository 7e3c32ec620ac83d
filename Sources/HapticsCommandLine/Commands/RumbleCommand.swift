import HapticsMeasurement
import HapticsSystem

/// `haptics rumble`: both motors at the given strengths for a while, as `fftest` plays a rumble.
struct RumbleCommand: Command {
    static let name = "rumble"
    static let abstract = "Run a device's two rumble motors at given strengths for a while."
    static let usage = ["rumble <low> <high> [--for <time>] [--device <path|name>] [--json]"]
    static let options = [
        HelpRow("<low>", "The heavy, low-frequency motor (strong_magnitude): 0 to 1, or 0% to 100%."),
        HelpRow("<high>", "The light, high-frequency motor (weak_magnitude): 0 to 1, or 0% to 100%."),
        HelpRow("--for <time>", "How long: 500ms (default), 2s, 1.5s; at most 60s. Ctrl-C ends it early."),
        BenchOptions.deviceHelp,
        HelpRow("--json", "One JSON object saying what the kernel did."),
    ]
    static let discussion = """
        The effect is uploaded, played, stopped after the time and erased, straight on the event node:
        no profile shapes it. The kernel answers the upload and the erase; the play and the stop are
        only written, so whether the motors ran is for you to feel.
        """

    var low: Double
    var high: Double
    var duration: Duration = .milliseconds(500)
    var options = BenchOptions()

    init(arguments: [String]) throws(CommandLineError) {
        var cursor = ArgumentCursor(arguments)
        var levels: [String] = []
        while let item = cursor.next() {
            if try options.parse(item, &cursor, command: Self.name) { continue }
            switch item {
            case let .option("for", inline): duration = try BenchArgument.duration(try cursor.value(for: "for", inline: inline))
            case let .option(name, _): throw .usage("unknown option --\(name)")
            case let .shortOption(letter): throw .usage("unknown option -\(letter)")
            case let .positional(value):
                guard levels.count < 2 else { throw .usage("unexpected argument '\(value)'") }
                levels.append(value)
            }
        }
        guard levels.count == 2 else { throw .usage("missing the strengths of the <low> and <high> motors") }
        low = try BenchArgument.level(levels[0], what: "<low>")
        high = try BenchArgument.level(levels[1], what: "<high>")
    }

    func run(_ context: CommandContext) throws(CommandLineError) -> Int32 {
        let bench = try ForceFeedbackBench.open(options.device, context: context)
        defer { bench.close() }
        guard bench.device.info.supportsRumble else {
            throw .failure("\(bench.title) has no rumble (FF_RUMBLE not advertised); try 'haptics test'")
        }
        let milliseconds = Int((duration.inMilliseconds).rounded())
        InterruptSignal.install()
        defer { InterruptSignal.uninstall() }
        let outcome = bench.play(ForceFeedbackBench.rumble(strong: low, weak: high, milliseconds: milliseconds), for: duration)
        if options.json {
            var line = JSONLine(record: "rumble")
            line.add("device", bench.device.path)
            line.add("low", low, digits: 3)
            line.add("high", high, digits: 3)
            line.add("duration_ms", milliseconds)
            BenchOptions.add(outcome, to: &line)
            context.console.line(line.text)
        } else {
            context.console.line("rumble low \(JSONLine.number(low * 100, digits: 1))% high \(JSONLine.number(high * 100, digits: 1))% for \(milliseconds) ms on \(bench.title): \(outcome.summary)")
        }
        return outcome.failure == nil ? ExitStatus.success : ExitStatus.failure
    }
}

/// `haptics stop`: every effect of a device stopped, whoever uploaded it.
struct StopCommand: Command {
    static let name = "stop"
    static let abstract = "Stop every effect playing on a device, whoever started it."
    static let usage = ["stop [--device <path|name>] [--json]"]
    static let options = [BenchOptions.deviceHelp, HelpRow("--json", "One JSON object saying what was written.")]
    static let discussion = """
        A stop is written for every slot of the device. The kernel lets any process stop an effect,
        also one another program (a game, SDL, Steam) uploaded and left playing.
        """

    var options = BenchOptions()

    init(arguments: [String]) throws(CommandLineError) {
        var cursor = ArgumentCursor(arguments)
        while let item = cursor.next() {
            if try options.parse(item, &cursor, command: Self.name) { continue }
            switch item {
            case let .option(name, _): throw .usage("unknown option --\(name)")
            case let .shortOption(letter): throw .usage("unknown option -\(letter)")
            case let .positional(value): throw .usage("unexpected argument '\(value)'")
            }
        }
    }

    func run(_ context: CommandContext) throws(CommandLineError) -> Int32 {
        let bench = try ForceFeedbackBench.open(options.device, context: context)
        defer { bench.close() }
        let slots = try bench.stopAll()
        if options.json {
            var line = JSONLine(record: "stop")
            line.add("device", bench.device.path)
            line.add("slots", slots)
            context.console.line(line.text)
        } else {
            context.console.line("stop written to \(slots) slot\(slots == 1 ? "" : "s") of \(bench.title)")
        }
        return ExitStatus.success
    }
}

/// `haptics gain`: the device's overall strength.
struct GainCommand: Command {
    static let name = "gain"
    static let abstract = "Set a device's overall force-feedback strength (FF_GAIN)."
    static let usage = ["gain <level> [--device <path|name>] [--json]"]
    static let options = [
        HelpRow("<level>", "0 to 1, or 0% to 100% of full strength."),
        BenchOptions.deviceHelp,
        HelpRow("--json", "One JSON object saying what was written."),
    ]
    static let discussion = """
        The gain stays with the device until it is set again or the device is unplugged; every
        program's effects play at it. The kernel takes the gain without saying whether the driver
        applied it.
        """

    var level: Double
    var options = BenchOptions()

    init(arguments: [String]) throws(CommandLineError) {
        var cursor = ArgumentCursor(arguments)
        var level: String?
        while let item = cursor.next() {
            if try options.parse(item, &cursor, command: Self.name) { continue }
            switch item {
            case let .option(name, _): throw .usage("unknown option --\(name)")
            case let .shortOption(letter): throw .usage("unknown option -\(letter)")
            case let .positional(value):
                guard level == nil else { throw .usage("unexpected argument '\(value)'") }
                level = value
            }
        }
        guard let level else { throw .usage("missing the <level>") }
        self.level = try BenchArgument.level(level, what: "<level>")
    }

    func run(_ context: CommandContext) throws(CommandLineError) -> Int32 {
        let bench = try ForceFeedbackBench.open(options.device, context: context)
        defer { bench.close() }
        guard bench.device.info.supportsGain else {
            throw .failure("\(bench.title) has no gain control (FF_GAIN not advertised)")
        }
        do {
            try bench.setGain(level)
        } catch {
            throw .failure("\(PrintableText.escaped(bench.device.path)): \(error)")
        }
        let value = Int(ForceFeedbackBench.magnitude(level))
        if options.json {
            var line = JSONLine(record: "gain")
            line.add("device", bench.device.path)
            line.add("level", level, digits: 3)
            line.add("value", value)
            context.console.line(line.text)
        } else {
            context.console.line("gain \(JSONLine.number(level * 100, digits: 1))% (\(value) of 65535) written to \(bench.title)")
        }
        return ExitStatus.success
    }
}

/// The options the bench commands share: `--device` and `--json`; `--profile` is refused with
/// the reason.
struct BenchOptions {
    var device: String?
    var json = false
    /// `--yes` (test only).
    var yes = false

    static let deviceHelp = HelpRow("--device <device>", "An event node path or part of a device's name. Default: the first force-feedback device this user may open.")

    mutating func parse(_ item: ArgumentCursor.Item, _ cursor: inout ArgumentCursor, command: String) throws(CommandLineError) -> Bool {
        switch item {
        case let .option("device", inline): device = try cursor.value(for: "device", inline: inline)
        case .option("json", nil): json = true
        case .option("profile", _):
            throw .usage("--profile does not apply: \(command) drives the device's effects directly, with no profile shaping them")
        default: return false
        }
        return true
    }

    /// Adds what the kernel did to a record.
    static func add(_ outcome: ForceFeedbackBench.Outcome, to line: inout JSONLine) {
        line.add("result", outcome.failure == nil ? "accepted" : "rejected")
        line.add("accepted", raw: "[" + outcome.accepted.map(JSONLine.quote).joined(separator: ",") + "]")
        line.add("written", raw: "[" + outcome.written.map(JSONLine.quote).joined(separator: ",") + "]")
        if let failure = outcome.failure {
            line.add("call", failure.call)
            line.add("errno", Int(failure.errno.rawValue))
            line.add("error", failure.errno.description)
        }
    }
}
