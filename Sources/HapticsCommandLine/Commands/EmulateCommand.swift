import HapticsMeasurement
import HapticsDevices
import HapticsScheduler
import HapticsSystem
import HapticsVirtualDevices

/// `haptics emulate`: creates a virtual force-feedback device and shows what drivers and
/// applications send it, until interrupted.
struct EmulateCommand: Command {
    static let name = "emulate"
    static let abstract = "Create a virtual device and print what it is sent, until Ctrl-C."
    static let usage = ["emulate dualsense|rumble-pad [--bluetooth] [--json]"]
    static let options = [
        HelpRow("dualsense", "A DualSense over uhid, driven by the kernel's hid-playstation: prints the motor and trigger bytes of every output report."),
        HelpRow("rumble-pad", "A 16-slot rumble pad over uinput: prints every upload, play, stop, erase and gain."),
        HelpRow("--bluetooth", "The DualSense on Bluetooth, sending input reports: SDL's HIDAPI backend can take it."),
        HelpRow("--json", "One JSON object per line."),
    ]
    static let discussion = """
        Needs root (write access to /dev/uhid or /dev/uinput) and, for dualsense, the hid-playstation
        module loaded. Ctrl-C (SIGINT) or SIGTERM destroys the device and exits 0. Other programs
        find the device like any other, e.g. with 'haptics devices'.
        """

    enum Kind: String {
        case dualsense
        case rumblePad = "rumble-pad"
    }

    var kind: Kind
    var json = false
    var bluetooth = false

    init(arguments: [String]) throws(CommandLineError) {
        var cursor = ArgumentCursor(arguments)
        var kind: Kind?
        while let item = cursor.next() {
            switch item {
            case .option("json", nil): json = true
            case .option("bluetooth", nil): bluetooth = true
            case let .option(name, _): throw .usage("unknown option --\(name)")
            case let .shortOption(letter): throw .usage("unknown option -\(letter)")
            case let .positional(value):
                guard kind == nil else { throw .usage("unexpected argument '\(value)'") }
                guard let parsed = Kind(rawValue: value) else {
                    throw .usage("unknown device kind '\(value)' (available: dualsense, rumble-pad)")
                }
                kind = parsed
            }
        }
        guard let kind else { throw .usage("missing the device kind (dualsense or rumble-pad)") }
        guard !bluetooth || kind == .dualsense else { throw .usage("--bluetooth is for dualsense only") }
        self.kind = kind
    }

    func run(_ context: CommandContext) throws(CommandLineError) -> Int32 {
        InterruptSignal.install()
        defer { InterruptSignal.uninstall() }
        let origin = SystemMonotonicClock().now()
        switch kind {
        case .dualsense:
            let controller: VirtualDualSense
            do {
                // A Bluetooth pad reports at 250 Hz, as the controller does.
                controller = bluetooth
                    ? try VirtualDualSense(connection: .bluetooth, inputReportInterval: .milliseconds(4))
                    : try VirtualDualSense()
            } catch {
                throw .failure("cannot create the DualSense: \(error) (needs root and /dev/uhid)")
            }
            defer { controller.close() }
            let node = (try? controller.waitForGamepadNode()) ?? nil
            let hidraw = bluetooth ? ((try? controller.waitForHidrawNode()) ?? nil) : nil
            let bus = bluetooth ? "Bluetooth DualSense" : "DualSense"
            announce(node.map { "\(bus) on \($0)" + (hidraw.map { " and \($0)" } ?? "") }
                         ?? "\(bus) (no gamepad node: is hid-playstation loaded?)", context)
            var shown = 0
            waitForInterrupt {
                let reports = controller.outputReports
                for report in reports.dropFirst(shown) { context.console.line(line(for: report, origin: origin)) }
                shown = reports.count
            }
        case .rumblePad:
            let sink: UInputForceFeedbackSink
            do {
                sink = try UInputForceFeedbackSink(.init(name: "haptics rumble pad"))
            } catch {
                throw .failure("cannot create the rumble pad: \(error) (needs root and /dev/uinput)")
            }
            defer { sink.close() }
            announce("rumble pad on \(sink.eventNodePath)", context)
            var shown = 0
            waitForInterrupt {
                let records = sink.records
                for record in records.dropFirst(shown) { context.console.line(line(for: record, origin: origin)) }
                shown = records.count
            }
        }
        return ExitStatus.success
    }

    private func announce(_ what: String, _ context: CommandContext) {
        if json {
            var line = JSONLine(record: "emulating")
            line.add("emulating", kind.rawValue)
            line.add("device", what)
            context.console.line(line.text)
        } else {
            context.console.line("emulating \(what); Ctrl-C to stop")
        }
    }

    /// How often the device's record is looked at: often enough that lines appear as things happen.
    static let pollInterval: Duration = .milliseconds(10)

    /// Calls `poll` every ``pollInterval`` until SIGINT or SIGTERM, and once more after it.
    private func waitForInterrupt(_ poll: () -> Void) {
        while !InterruptSignal.isPending {
            poll()
            SystemMonotonicClock.sleep(until: MonotonicInstant.now + Self.pollInterval)
        }
        poll()
    }

    private func milliseconds(_ instant: MonotonicInstant, origin: MonotonicInstant) -> String {
        JSONLine.number((instant - origin).inMilliseconds, digits: 1)
    }

    func line(for report: DualSenseOutputReport, origin: MonotonicInstant) -> String {
        if json {
            var line = JSONLine(record: "output-report")
            line.add("t_ms", (report.receivedAt - origin).inMilliseconds, digits: 1)
            line.add("report", Int(report.reportID))
            line.add("sets_motors", report.setsMotors)
            if report.setsMotors {
                line.add("weak", Int(report.weakMotor))
                line.add("strong", Int(report.strongMotor))
            }
            if report.setsLeftTrigger { line.add("left_trigger", Self.hex(report.leftTriggerEffect)) }
            if report.setsRightTrigger { line.add("right_trigger", Self.hex(report.rightTriggerEffect)) }
            return line.text
        }
        let time = "+\(milliseconds(report.receivedAt, origin: origin)) ms"
        if report.setsLeftTrigger || report.setsRightTrigger {
            let left = report.setsLeftTrigger ? " left \(Self.hex(report.leftTriggerEffect))" : ""
            let right = report.setsRightTrigger ? " right \(Self.hex(report.rightTriggerEffect))" : ""
            return "\(time)  triggers\(left)\(right)"
        }
        guard report.setsMotors else { return "\(time)  report 0x\(InputID.hex4(UInt16(report.reportID)).suffix(2)): lights, motors unchanged" }
        return "\(time)  motors weak \(report.weakMotor) strong \(report.strongMotor)"
    }

    /// Bytes as lowercase hex digits, two a byte, no separator: `25440007…`.
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 0x10 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    func line(for record: UInputForceFeedbackRecord, origin: MonotonicInstant) -> String {
        var fields = JSONLine()
        var text: String
        switch record.event {
        case let .upload(effect, previous):
            fields.add("event", previous == nil ? "upload" : "update")
            fields.add("effect", Int(effect.id))
            text = "\(previous == nil ? "upload" : "update") effect \(effect.id): \(Self.describe(effect, into: &fields))"
        case let .erase(id):
            fields.add("event", "erase")
            fields.add("effect", Int(id))
            text = "erase effect \(id)"
        case let .play(id, count):
            fields.add("event", "play")
            fields.add("effect", Int(id))
            fields.add("count", Int(count))
            text = "play effect \(id) ×\(count)"
        case let .stop(id):
            fields.add("event", "stop")
            fields.add("effect", Int(id))
            text = "stop effect \(id)"
        case let .gain(value):
            fields.add("event", "gain")
            fields.add("value", Int(value))
            text = "gain \(value)"
        case let .autocenter(value):
            fields.add("event", "autocenter")
            fields.add("value", Int(value))
            text = "autocenter \(value)"
        }
        if json {
            var line = JSONLine(record: "ff-event")
            line.add("t_ms", (record.timestamp - origin).inMilliseconds, digits: 1)
            line.append(fields)
            return line.text
        }
        return "+\(milliseconds(record.timestamp, origin: origin)) ms  \(text)"
    }

    static func describe(_ effect: UploadedForceFeedbackEffect, into fields: inout JSONLine) -> String {
        let length = effect.replayLength == 0 ? "until stopped" : "\(effect.replayLength) ms"
        fields.add("length_ms", Int(effect.replayLength))
        switch effect.parameters {
        case let .rumble(strong, weak):
            fields.add("effect_type", "rumble")
            fields.add("strong", Int(strong))
            fields.add("weak", Int(weak))
            return "rumble strong \(strong) weak \(weak), \(length)"
        case let .periodic(waveform, period, magnitude, _, _, _):
            fields.add("effect_type", "periodic")
            fields.add("waveform", Int(waveform))
            fields.add("period_ms", Int(period))
            fields.add("magnitude", Int(magnitude))
            return "periodic waveform \(waveform) period \(period) ms magnitude \(magnitude), \(length)"
        case let .constant(level, _):
            fields.add("effect_type", "constant")
            fields.add("level", Int(level))
            return "constant level \(level), \(length)"
        case .undecoded:
            fields.add("effect_type", Int(effect.type))
            return "type \(effect.type), \(length)"
        }
    }
}
