import HapticsMeasurement
import HapticsDevices
import HapticsSystem

/// `haptics verify`: what a device does with each effect type, found by trying it.
struct VerifyCommand: Command {
    static let name = "verify"
    static let abstract = "Try each effect type on a device and report what the kernel accepted."
    static let usage = ["verify <device> [--json]"]
    static let options = [
        HelpRow("<device>", "An event node path (/dev/input/event5) or part of the device's name."),
        HelpRow("--json", "One JSON object per effect type."),
    ]
    static let discussion = """
        Each advertised type (rumble, periodic, constant) is uploaded, played, stopped and erased;
        the gain is set to half and back to full. Capability bits do not prove an effect works, and
        neither does the kernel: it answers an upload and an erase with the driver's verdict
        (accepted, or rejected with the call and errno), but a play, a stop or a gain is only
        written, with no word on what the driver did with it. Each type is reported with what was
        accepted and what was written, as rejected, or as not advertised. The device plays short,
        weak effects while this runs. Exit status 1 when an advertised type is rejected.
        """

    var device: String
    var json = false

    init(arguments: [String]) throws(CommandLineError) {
        let parsed = try JSONAndPositionals(arguments, maximumPositionals: 1, missing: "missing the device (a path or part of its name)")
        json = parsed.json
        device = parsed.positionals[0]
    }

    func run(_ context: CommandContext) throws(CommandLineError) -> Int32 {
        let info = try DeviceLookup.find(device, context: context)
        let opened: EvdevDevice
        do {
            opened = try EvdevDevice(path: info.path)
        } catch {
            throw .failure(error.description)
        }
        let results = opened.verifyEffects()
        opened.close()
        context.console.write(Self.format(results, name: info.name, path: info.path, json: json))
        let rejected = results.contains { if case .rejected = $0.outcome { true } else { false } }
        return rejected ? ExitStatus.failure : ExitStatus.success
    }

    /// The report of `results` for the device `name` at `path`: a line per type and what the words
    /// mean, or one JSON line per type.
    static func format(_ results: [EffectVerification], name: String, path: String, json: Bool) -> String {
        if json { return results.map { jsonLine($0, path: path) + "\n" }.joined() }
        var text = "\(PrintableText.escaped(name)) (\(PrintableText.escaped(path)))\n"
        for result in results {
            let type = result.kind.rawValue
            let waveform = result.waveform.map { "; waveform \($0.name)" } ?? ""
            text += "  " + type + String(repeating: " ", count: 10 - type.count) + result.summary + waveform + "\n"
        }
        if results.contains(where: { !$0.written.isEmpty }) {
            text += "written: the kernel took the event but does not say whether the driver acted on it\n"
        }
        return text
    }

    /// One type's result as a JSON line.
    static func jsonLine(_ result: EffectVerification, path: String) -> String {
        var line = JSONLine(record: "effect-check")
        line.add("device", path)
        line.add("effect", result.kind.rawValue)
        switch result.outcome {
        case .accepted: line.add("result", "accepted")
        case .written: line.add("result", "written")
        case .notAdvertised: line.add("result", "not-advertised")
        case let .rejected(error):
            line.add("result", "rejected")
            line.add("call", error.call)
            line.add("errno", Int(error.errno.rawValue))
            line.add("error", error.errno.description)
        }
        line.add("checked", result.summary)
        line.add("accepted", raw: "[" + result.accepted.map { JSONLine.quote($0.rawValue) }.joined(separator: ",") + "]")
        line.add("written", raw: "[" + result.written.map { JSONLine.quote($0.rawValue) }.joined(separator: ",") + "]")
        if let waveform = result.waveform { line.add("waveform", waveform.name) }
        return line.text
    }
}
