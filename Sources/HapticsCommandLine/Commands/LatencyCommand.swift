#if canImport(Glibc)
import HapticsMeasurement
import Glibc
#endif
import Haptics
import HapticsDevices
import HapticsPatterns
import HapticsSystem
import HapticsViews
import HapticsVirtualDevices

/// `haptics latency`: plays a prepared feedback N times as a game calls it and reports, stage by
/// stage, how long after the call each one came (from the engine's trace).
struct LatencyCommand: Command {
    static let name = "latency"
    static let abstract = "Measure the latency of a prepared trigger, stage by stage, from the game's call."
    static let usage = ["latency [--device <path|name|simulated|uinput|dualsense>] [--feedback <feedback>] [--count <n>] [--json] [-o <file.svg>]"]
    static let options = [
        HelpRow("--device <device>", "Where to play: an event node path, part of a device's name, simulated, uinput (a virtual device created for the run, needs write access to /dev/uinput: the kernel's timestamp of each event is measured too) or dualsense (a virtual DualSense created over /dev/uhid and bound by hid-playstation: the output report the driver sends is measured too). Default: the first force-feedback device, else simulated."),
        HelpRow("--feedback <feedback>", "What to trigger (default: impact.heavy)."),
        HelpRow("--count <n>", "How many triggers, 1…100000 (default: 100), one every 100 ms."),
        HelpRow("--json", "One JSON object per trigger, then one with the figures."),
        OutputFile.help([(.svg, "the histograms as an image")]),
    ]
    static let discussion = """
        The feedback is prepared once, then each trigger is one play(_:) call, as a game makes it. Each
        stage is timed from the instant before that call: call (the call returned), dequeued (the
        realtime thread took the start from the queue), written (the device's write() returned),
        received (uinput: the kernel stamped the event; dualsense: the driver's output report reached
        the device) and felt (written + the profile's rise time); lateness is written − deadline. A
        progress bar goes to stderr when it is a terminal.
        """

    static let spacing: Duration = .milliseconds(100)

    var deviceArgument: String?
    var feedback = Feedback.impact(.heavy)
    var count = 100
    var json = false
    var outputs = OutputFiles()

    init(arguments: [String]) throws(CommandLineError) {
        var cursor = ArgumentCursor(arguments)
        while let item = cursor.next() {
            if try outputs.parse(item, &cursor, accepted: [.svg]) { continue }
            switch item {
            case let .option("device", inline): deviceArgument = try cursor.value(for: "device", inline: inline)
            case let .option("feedback", inline):
                let text = try cursor.value(for: "feedback", inline: inline)
                do {
                    feedback = try Feedback(parsing: text)
                } catch {
                    throw .usage("--feedback: \(error)")
                }
            case let .option("count", inline):
                let value = try cursor.value(for: "count", inline: inline)
                guard let number = Int(value), (1...100_000).contains(number) else {
                    throw .usage("--count needs a whole number from 1 to 100000, not '\(value)'")
                }
                count = number
            case .option("json", nil): json = true
            case let .option(name, _): throw .usage("unknown option --\(name)")
            case let .shortOption(letter): throw .usage("unknown option -\(letter)")
            case let .positional(value): throw .usage("unexpected argument '\(value)'")
            }
        }
    }

    func run(_ context: CommandContext) throws(CommandLineError) -> Int32 {
        var sink: UInputForceFeedbackSink?
        var controller: VirtualDualSense?
        let output: HapticEngine.Output
        switch deviceArgument {
        case "simulated"?:
            output = .simulated(.genericRumble)
        case "uinput"?:
            do {
                let created = try UInputForceFeedbackSink(.init(name: "haptics latency"))
                sink = created
                output = HapticEngine.Output(device: EvdevActuator(device: try EvdevDevice(path: created.eventNodePath)),
                                             profile: .genericRumble, name: created.configuration.name, path: created.eventNodePath)
            } catch {
                throw .failure("cannot create a uinput device: \(error)")
            }
        case "dualsense"?:
            do {
                let created = try VirtualDualSense()
                controller = created
                guard let node = try created.waitForGamepadNode() else {
                    throw CommandLineError.failure("the virtual DualSense got no event node within 10 s (is hid-playstation loaded?)")
                }
                output = try Self.evdev(node)
            } catch let error as CommandLineError {
                controller?.close()
                throw error
            } catch {
                throw .failure("cannot create a virtual DualSense: \(error)")
            }
        case let argument?:
            output = try Self.evdev(DeviceLookup.find(argument, context: context).path)
        case nil:
            let directory = DeviceLookup.directory(context)
            if let first = DeviceCatalog.discover(directory: directory).first(where: { $0.accessError == nil }) {
                output = try Self.evdev(first.path)
            } else {
                context.console.errorLine("no force-feedback device in \(PrintableText.escaped(directory)); measuring the simulated device")
                output = .simulated(.genericRumble)
            }
        }
        defer {
            (output.device as? EvdevActuator)?.close()
            sink?.close()
            controller?.close()
        }
        var receipts: ((Int32) -> [TraceRecord])?
        if let sink { receipts = { sink.receiptRecords(channel: $0) } }
        if let controller { receipts = { controller.receiptRecords(channel: $0) } }
        let measurement = try LatencyMeasurement.run(feedback: feedback, count: count, spacing: Self.spacing, on: output,
                                                     receipts: receipts,
                                                     progress: Self.progress(context))
        let report = measurement.report
        if let svg = outputs.file(.svg) {
            let histogram = LatencyHistogram(series: report.stages.map { .init(name: $0.name, values: $0.samples) })
            try svg.write(histogram.svg(title: "\(feedback.name) on \(output.name): latency from the call"), context)
        }
        if json {
            for line in measurement.triggerLines { context.console.line(line) }
            context.console.line(report.jsonObject(feedback: feedback.name, device: output.path ?? "simulated", realtime: measurement.realtime))
            return report.missed == 0 ? ExitStatus.success : ExitStatus.failure
        }
        context.console.line("\(feedback.name) on \(PrintableText.escaped(output.name)) (\(PrintableText.escaped(output.path ?? "simulated"))), \(count) triggers, profile \(output.profile.name)")
        context.console.line(report.table)
        context.console.line(LatencyMeasurement.describe(measurement.realtime))
        context.console.write(LatencyHistogram(series: report.stages.filter { $0.name == "written" || $0.name == "received" }
            .map { .init(name: "call → \($0.name)", values: $0.samples) }).terminal())
        if report.missed > 0 { context.console.errorLine("haptics latency: \(report.missed) triggers did not reach the device") }
        return report.missed == 0 ? ExitStatus.success : ExitStatus.failure
    }

    static func evdev(_ path: String) throws(CommandLineError) -> HapticEngine.Output {
        do {
            return try HapticEngine.evdevOutput(path: path)
        } catch {
            throw .failure(error.description)
        }
    }

    /// A progress bar on stderr, redrawn in place, when stderr is a terminal.
    static func progress(_ context: CommandContext) -> ((Int, Int) -> Void)? {
        guard isatty(2) == 1, context.console is StandardConsole else { return nil }
        return { done, total in
            let filled = done * 30 / max(total, 1)
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: 30 - filled)
            context.console.writeError("\r\(bar) \(done)/\(total)" + (done == total ? "\n" : ""))
        }
    }
}
