import HapticsMeasurement
import CEvdev
import HapticsDevices
import HapticsSystem

/// `haptics test`: every effect type a device reports, one step at a time, as `fftest` does, with
/// what the kernel accepted kept apart from what only the person holding the pad can tell.
struct TestCommand: Command {
    static let name = "test"
    static let abstract = "Step through every effect type a device reports; say what the kernel accepted and ask what was felt."
    static let usage = ["test [--device <path|name>] [--yes] [--json]"]
    static let options = [
        BenchOptions.deviceHelp,
        HelpRow("--yes", "Run every step without asking (unattended: nothing is asked about what was felt)."),
        HelpRow("--json", "One JSON object per step, then one with the totals."),
    ]
    static let discussion = """
        The steps follow what the device advertises: each rumble motor alone and both together,
        each periodic waveform, a constant force, the gain at half and at full, and every effect
        slot filled. Before each step Enter plays it, s skips it and q ends the test; after it you
        are asked whether you felt it. The kernel answers uploads and erases (accepted or rejected);
        plays, stops and gains are only written, so feeling them is the only proof they worked.
        Exit status 1 when the kernel rejected a step or a step was not felt.
        """

    var options = BenchOptions()

    init(arguments: [String]) throws(CommandLineError) {
        var cursor = ArgumentCursor(arguments)
        while let item = cursor.next() {
            if case .option("yes", nil) = item {
                options.yes = true
                continue
            }
            if try options.parse(item, &cursor, command: Self.name) { continue }
            switch item {
            case let .option(name, _): throw .usage("unknown option --\(name)")
            case let .shortOption(letter): throw .usage("unknown option -\(letter)")
            case let .positional(value): throw .usage("unexpected argument '\(value)'")
            }
        }
    }

    /// One step of the test.
    struct Step {
        enum Action {
            case effect(ff_effect)
            /// The effect played at half gain, then at full.
            case gain(ff_effect)
            /// The effect uploaded into every slot and one more.
            case slots(ff_effect)
        }
        /// A short name for JSON (`rumble-low`).
        let name: String
        /// What the step plays, for people.
        let text: String
        let action: Action
    }

    /// How long each felt step plays.
    static let stepLength = 600

    /// The steps for a device advertising `codes` with `slots` slots.
    static func steps(codes: Set<ForceFeedbackCode>, slots: Int) -> [Step] {
        let length = stepLength
        var steps: [Step] = []
        if codes.contains(.rumble) {
            steps.append(Step(name: "rumble-low", text: "rumble, low-frequency motor alone at 75%, \(length) ms",
                              action: .effect(ForceFeedbackBench.rumble(strong: 0.75, weak: 0, milliseconds: length))))
            steps.append(Step(name: "rumble-high", text: "rumble, high-frequency motor alone at 75%, \(length) ms",
                              action: .effect(ForceFeedbackBench.rumble(strong: 0, weak: 0.75, milliseconds: length))))
            steps.append(Step(name: "rumble-both", text: "rumble, both motors at 50%, \(length) ms",
                              action: .effect(ForceFeedbackBench.rumble(strong: 0.5, weak: 0.5, milliseconds: length))))
        }
        if codes.contains(.periodic) {
            let advertised = ForceFeedbackCode.waveforms.filter(codes.contains)
            for waveform in advertised.isEmpty ? [.sine] : advertised {
                steps.append(Step(name: "periodic-\(waveform.name)", text: "periodic \(waveform.name), 100 ms period at 75%, \(length) ms",
                                  action: .effect(ForceFeedbackBench.periodic(waveform, level: 0.75, milliseconds: length))))
            }
        }
        if codes.contains(.constant) {
            steps.append(Step(name: "constant", text: "constant force at 50%, \(length) ms",
                              action: .effect(ForceFeedbackBench.constant(level: 0.5, milliseconds: length))))
        }
        // The gain and the slots use the first type the device takes.
        let probe: ff_effect? = codes.contains(.rumble) ? ForceFeedbackBench.rumble(strong: 0.5, weak: 0.5, milliseconds: length)
            : codes.contains(.periodic) ? ForceFeedbackBench.periodic(.sine, level: 0.75, milliseconds: length)
            : codes.contains(.constant) ? ForceFeedbackBench.constant(level: 0.5, milliseconds: length) : nil
        if let probe, codes.contains(.gain) {
            steps.append(Step(name: "gain", text: "the same effect at half gain, then at full gain (stronger the second time), \(length) ms each",
                              action: .gain(probe)))
        }
        if var probe {
            probe.replay.length = 1
            steps.append(Step(name: "slots", text: "an effect uploaded into each of the \(slots) slots (nothing to feel)",
                              action: .slots(probe)))
        }
        return steps
    }

    /// What became of a step.
    struct Result {
        var outcome = ForceFeedbackBench.Outcome()
        /// `yes`, `no`, `not-asked` or `skipped`.
        var felt = "not-asked"
        var skipped = false
        /// For the slots step: how many the kernel took.
        var filled: Int?
    }

    func run(_ context: CommandContext) throws(CommandLineError) -> Int32 {
        let bench = try ForceFeedbackBench.open(options.device, context: context)
        defer { bench.close() }
        let steps = Self.steps(codes: bench.device.info.forceFeedbackCodes, slots: bench.device.info.slots)
        guard !steps.isEmpty else { throw .failure("\(bench.title) advertises no effect type to test") }
        InterruptSignal.install()
        defer { InterruptSignal.uninstall() }
        if !options.json { context.console.line("testing \(bench.title): \(steps.count) steps") }
        var results: [Result] = []
        for (index, step) in steps.enumerated() {
            let label = "[\(index + 1)/\(steps.count)] \(step.text)"
            if !options.json { context.console.line(label) }
            var result = Result()
            if !options.yes {
                context.console.writeError("  Enter plays it, s skips, q quits: ")
                let answer = context.console.readLine()?.lowercased()
                if answer == nil || answer == "q" { break }
                if answer == "s" {
                    result.skipped = true
                    result.felt = "skipped"
                }
            }
            if !result.skipped {
                result = run(step, on: bench)
                if !options.yes, result.outcome.failure == nil, result.filled == nil {
                    context.console.writeError("  felt it? [y/n] ")
                    result.felt = context.console.readLine()?.lowercased().hasPrefix("y") == true ? "yes" : "no"
                }
            }
            results.append(result)
            context.console.line(options.json ? Self.record(step, result, index: index + 1, path: bench.device.path)
                                 : "  " + Self.text(result))
            if InterruptSignal.isPending { break }
        }
        let rejected = results.filter { $0.outcome.failure != nil }.count
        let notFelt = results.filter { $0.felt == "no" }.count
        if options.json {
            var line = JSONLine(record: "test")
            line.add("device", bench.device.path)
            line.add("steps", steps.count)
            line.add("run", results.filter { !$0.skipped }.count)
            line.add("rejected", rejected)
            line.add("felt", results.filter { $0.felt == "yes" }.count)
            line.add("not_felt", notFelt)
            line.add("skipped", results.filter(\.skipped).count)
            context.console.line(line.text)
        } else {
            context.console.line("\(results.filter { !$0.skipped }.count) of \(steps.count) steps run: \(rejected) rejected by the kernel, "
                + "\(results.filter { $0.felt == "yes" }.count) felt, \(notFelt) not felt, \(results.filter(\.skipped).count) skipped")
            context.console.line("written: the kernel took the event but does not say whether the driver acted on it; only feeling it tells")
        }
        return rejected == 0 && notFelt == 0 ? ExitStatus.success : ExitStatus.failure
    }

    private func run(_ step: Step, on bench: ForceFeedbackBench) -> Result {
        var result = Result()
        let length = Duration.milliseconds(Self.stepLength)
        switch step.action {
        case let .effect(effect):
            result.outcome = bench.play(effect, for: length)
        case let .gain(effect):
            var outcome = ForceFeedbackBench.Outcome()
            for level in [0.5, 1.0] {
                do {
                    try bench.setGain(level)
                    outcome.written.append(level == 1 ? "full-gain" : "half-gain")
                } catch {
                    outcome.failure = error
                    break
                }
                let played = bench.play(effect, for: length)
                if let failure = played.failure {
                    outcome.failure = failure
                    break
                }
                if outcome.accepted.isEmpty { outcome.accepted = played.accepted }
                ForceFeedbackBench.wait(.milliseconds(200))
            }
            result.outcome = outcome
        case let .slots(effect):
            let (filled, refusal) = bench.fillSlots(with: effect)
            result.filled = filled
            result.outcome.accepted = ["upload ×\(filled)", "erase ×\(filled)"]
            // The device holds `slots`; one more must be refused, and fewer is the failure.
            if filled < bench.device.info.slots, let refusal { result.outcome.failure = refusal }
            if refusal == nil { result.outcome.written = ["(the kernel took one more than the device reports)"] }
        }
        return result
    }

    static func text(_ result: Result) -> String {
        if result.skipped { return "skipped" }
        var text = "kernel: " + result.outcome.summary
        if let filled = result.filled { text = "kernel: \(filled) slot\(filled == 1 ? "" : "s") took an effect" + (result.outcome.failure.map { ", then rejected: \($0.call): \($0.errno)" } ?? "") }
        switch result.felt {
        case "yes": text += "; felt"
        case "no": text += "; NOT felt"
        default: break
        }
        return text
    }

    static func record(_ step: Step, _ result: Result, index: Int, path: String) -> String {
        var line = JSONLine(record: "test-step")
        line.add("device", path)
        line.add("step", index)
        line.add("name", step.name)
        if result.skipped {
            line.add("result", "skipped")
        } else {
            BenchOptions.add(result.outcome, to: &line)
        }
        if let filled = result.filled { line.add("slots_filled", filled) }
        line.add("felt", result.felt)
        return line.text
    }
}
