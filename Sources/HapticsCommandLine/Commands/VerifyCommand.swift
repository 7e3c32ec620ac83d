import HapticsDevices

/// `haptics verify`: what a device really does with each effect type, found by trying it.
struct VerifyCommand: Command {
    static let name = "verify"
    static let abstract = "Exercise each effect type on a device and report what really works."
    static let usage = ["verify <device> [--json]"]
    static let options = [
        HelpRow("<device>", "An event node path (/dev/input/event5) or part of the device's name."),
        HelpRow("--json", "One JSON object per effect type."),
    ]
    static let discussion = """
        Each advertised type (rumble, periodic, constant) is uploaded, played, stopped and erased;
        the gain is set to half and back. Capability bits do not prove an effect works: a type is
        reported as works, rejected (with the call and errno that refused it), or not advertised.
        The device plays short, weak effects while this runs. Exit status 1 when an advertised type
        is rejected.
        """

    var device: String
    var json = false

    init(arguments: [String]) throws(CommandLineError) {
        let parsed = try JSONAndPositionals(arguments, maximumPositionals: 1, missing: "missing the device (a path or part of its name)")
        json = parsed.json
        device = parsed.positionals[0]
    }

    func run(_ context: CommandContext) throws(CommandLineError) -> Int32 {
        let info = try DeviceSelection.find(device, context: context)
        let opened: EvdevDevice
        do {
            opened = try EvdevDevice(path: info.path)
        } catch {
            throw .failure(error.description)
        }
        defer { opened.close() }
        let results = EffectTypeCheck.Kind.allCases.map { ($0, EffectTypeCheck.run($0, on: opened)) }
        if json {
            for (kind, check) in results {
                var line = JSONLine()
                line.add("device", info.path)
                line.add("type", kind.rawValue)
                line.add("result", check.result)
                if case let .rejected(error) = check {
                    line.add("call", error.call)
                    line.add("errno", Int(error.errno.rawValue))
                    line.add("error", error.errno.description)
                }
                context.console.line(line.text)
            }
        } else {
            context.console.line("\(info.name) (\(info.path))")
            for (kind, check) in results {
                context.console.line("  " + kind.rawValue + String(repeating: " ", count: 10 - kind.rawValue.count) + check.text)
            }
        }
        let rejected = results.contains { if case .rejected = $0.1 { true } else { false } }
        return rejected ? ExitStatus.failure : ExitStatus.success
    }
}
