import HapticsMeasurement
import HapticsSystem
/// `haptics doctor`: what this user needs to play haptics here, and the fix for each finding.
struct DoctorCommand: Command {
    static let name = "doctor"
    static let abstract = "Check what playing haptics here needs: devices, access, udev rule, realtime priority, sound, other holders."
    static let usage = ["doctor [--json]"]
    static let options = [HelpRow("--json", "One JSON object per finding, then one with the totals.")]
    static let discussion = """
        Each finding is ok, a warning or a problem, with what to do about it. Exit status 1 when
        there is a problem. HAPTICS_DOCTOR_ROOT reads another root folder instead of / (a fake
        /sys, /dev, /proc and /etc for tests). The realtime check starts a thread asking for
        SCHED_FIFO as the engine does, then rtkit when refused: on the system bus, or at the D-Bus
        address in HAPTICS_RTKIT_BUS_ADDRESS. On each pad this user may open, it counts the slots
        other openers hold by uploading silent effects until the pad is full, then erasing them all;
        it never plays anything.
        """

    var json = false

    init(arguments: [String]) throws(CommandLineError) {
        json = try JSONAndPositionals(arguments, maximumPositionals: 0).json
    }

    func run(_ context: CommandContext) throws(CommandLineError) -> Int32 {
        let realtimeKit = context.environment["HAPTICS_RTKIT_BUS_ADDRESS"].map { RealtimeKit.Bus.address($0) } ?? .system
        var checks = DoctorChecks(realtimeKit: realtimeKit)
        if let root = context.environment["HAPTICS_DOCTOR_ROOT"] {
            // Another root is another machine: the permissions are judged for a user named by the
            // environment (uid and groups), not by this process.
            let uid = context.environment["HAPTICS_DOCTOR_UID"].flatMap { UInt32($0) } ?? 1000
            let groups = (context.environment["HAPTICS_DOCTOR_GROUPS"] ?? "1000").split(separator: ",").compactMap { UInt32($0) }
            checks = DoctorChecks(root: root, identity: .init(uid: uid, groups: groups, isProcess: false), realtimeKit: realtimeKit)
        }
        let findings = checks.run()
        let problems = findings.filter { $0.status == .problem }.count
        let warnings = findings.filter { $0.status == .warning }.count
        if json {
            for finding in findings {
                var line = JSONLine(record: "doctor-finding")
                line.add("check", finding.check)
                line.add("status", finding.status.rawValue)
                line.add("message", finding.message)
                if !finding.fix.isEmpty { line.add("fix", finding.fix) }
                if let slots = finding.slots {
                    line.add("slots", slots.total)
                    line.add("slots-taken", slots.taken)
                }
                context.console.line(line.text)
            }
            var summary = JSONLine(record: "doctor")
            summary.add("findings", findings.count)
            summary.add("problems", problems)
            summary.add("warnings", warnings)
            context.console.line(summary.text)
        } else {
            for finding in findings {
                let mark = finding.status == .ok ? "ok     " : finding.status == .warning ? "warning" : "problem"
                context.console.line("\(mark)  \(finding.check): \(finding.message)")
                if !finding.fix.isEmpty { context.console.line("         fix: \(finding.fix)") }
            }
            context.console.line("\(problems) problem\(problems == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")")
        }
        return problems == 0 ? ExitStatus.success : ExitStatus.failure
    }
}
