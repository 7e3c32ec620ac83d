import HapticsMeasurement
import HapticsSystem
import HapticsTriggers

/// `haptics triggers`: set the adaptive trigger effects of a DualSense.
struct TriggersCommand: Command {
    static let name = "triggers"
    static let abstract = "Set the adaptive trigger effects of a DualSense."
    static let usage = ["triggers <device> [--left <effect>] [--right <effect>] [--json]"]
    static let options = [
        HelpRow("<device>", "The pad's event node (/dev/input/event5) or part of its name."),
        HelpRow("--left <effect>", "The left trigger's effect (L2); left as it is when not given."),
        HelpRow("--right <effect>", "The right trigger's effect (R2); left as it is when not given."),
        HelpRow("--json", "One JSON object: the node, the effects and the report written."),
    ]
    static var discussion: String {
        let width = TriggerEffect.syntax.map(\.name.count).max() ?? 0
        let effects = TriggerEffect.syntax.map { syntax in
            "  \(syntax.name)\(String(repeating: " ", count: width - syntax.name.count))  \(syntax.summary)\n"
                + (syntax.parameters.isEmpty ? "" : "  \(String(repeating: " ", count: width))  \(syntax.usage)\n")
        }.joined()
        return """
            EFFECTS: a name, then its whole numbers after a colon. Zones run from 0 (trigger released)
            to 9 (fully pulled).
            \(effects)
            Examples: --right weapon:2,6,8   --left feedback:3,5   --right vibration:4,6,30   --left off

            One output report is written to the pad's hidraw node (found from the event node in
            sysfs), with only the given triggers' enable bits set: rumble, lightbar and LEDs are left
            alone. The effects stay on the pad after the command ends; set them off to end them.
            """
    }

    var device: String
    var left: TriggerEffect?
    var right: TriggerEffect?
    var json = false

    init(arguments: [String]) throws(CommandLineError) {
        var cursor = ArgumentCursor(arguments)
        var device: String?
        func effect(_ option: String, _ text: String) throws(CommandLineError) -> TriggerEffect {
            do {
                return try TriggerEffect(parsing: text)
            } catch {
                throw .usage("--\(option): \(error)")
            }
        }
        while let item = cursor.next() {
            switch item {
            case .option("json", nil): json = true
            case let .option("left", inline): left = try effect("left", try cursor.value(for: "left", inline: inline))
            case let .option("right", inline): right = try effect("right", try cursor.value(for: "right", inline: inline))
            case let .option(name, _): throw .usage("unknown option --\(PrintableText.escaped(name))")
            case let .shortOption(letter): throw .usage("unknown option -\(PrintableText.escaped(String(letter)))")
            case let .positional(value):
                guard device == nil else { throw .usage("unexpected argument '\(PrintableText.escaped(value))'") }
                device = value
            }
        }
        guard let device else { throw .usage("missing the device (a path or part of its name)") }
        guard left != nil || right != nil else { throw .usage("nothing to set: give --left <effect>, --right <effect> or both") }
        self.device = device
    }

    func run(_ context: CommandContext) throws(CommandLineError) -> Int32 {
        let info = try DeviceLookup.find(device, context: context)
        let report: DualSenseTriggerReport
        let node: TriggerNode
        do {
            node = try TriggerNode.locate(eventNode: info.path)
            report = try node.writeOnce(left: left, right: right)
        } catch {
            throw .failure(PrintableText.escaped(error.description))
        }
        if json {
            var line = JSONLine(record: "triggers")
            line.add("device", info.path)
            line.add("hidraw", node.path)
            line.add("transport", node.transport.rawValue)
            if let left { line.add("left", left.description) } else { line.add("left", raw: "null") }
            if let right { line.add("right", right.description) } else { line.add("right", raw: "null") }
            line.add("report", EmulateCommand.hex(report.bytes))
            context.console.line(line.text)
        } else {
            let set = [left.map { "left \($0)" }, right.map { "right \($0)" }].compactMap { $0 }.joined(separator: ", ")
            context.console.line(
                "\(set) on \(PrintableText.escaped(info.name)) (\(PrintableText.escaped(node.path)), \(node.transport))"
            )
        }
        return ExitStatus.success
    }
}
