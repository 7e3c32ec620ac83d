import Glibc
import Testing
@testable import HapticsCommandLine
import HapticsTestSupport

/// `haptics doctor` on fake /sys, /dev, /proc and /etc trees.
@Suite("doctor")
struct DoctorCommandTests {
    /// A machine with one pad (event3, root:input 0660) and a keyboard (event4, no force feedback).
    static func machine(rule: Bool, rtprio: String, holder: Bool, cards: Bool = true) throws -> TemporaryFolder {
        let root = try TemporaryFolder()
        try root.write("Wireless Controller\n", to: "sys/class/input/event3/device/name")
        try root.write("107030000 0\n", to: "sys/class/input/event3/device/capabilities/ff")
        try root.write("Keyboard\n", to: "sys/class/input/event4/device/name")
        try root.write("0\n", to: "sys/class/input/event4/device/capabilities/ff")
        try root.write("", to: "dev/input/event3")
        try root.write("", to: "dev/input/event4")
        #expect(chown(root.path + "/dev/input/event3", 0, 104) == 0)
        #expect(chmod(root.path + "/dev/input/event3", 0o660) == 0)
        if rule { try root.write("# the rule\n", to: "etc/udev/rules.d/70-haptics.rules") }
        try root.write("""
            Limit                     Soft Limit           Hard Limit           Units
            Max realtime priority     \(rtprio)                    \(rtprio)
            """, to: "proc/self/limits")
        if cards {
            try root.write(" 0 [PCH            ]: HDA-Intel - HDA Intel PCH\n                      HDA Intel PCH at 0xf1234000 irq 130\n", to: "proc/asound/cards")
        }
        if holder {
            try root.write("steam\n", to: "proc/4242/comm")
            try root.write("", to: "proc/4242/fd/.keep")
            #expect(symlink(root.path + "/dev/input/event3", root.path + "/proc/4242/fd/17") == 0)
        }
        return root
    }

    func doctor(_ root: TemporaryFolder, groups: String, json: Bool = false) -> (status: Int32, output: String, error: String) {
        runTool(json ? ["doctor", "--json"] : ["doctor"], environment: ["HAPTICS_DOCTOR_ROOT": root.path, "HAPTICS_DOCTOR_UID": "1000", "HAPTICS_DOCTOR_GROUPS": groups])
    }

    @Test func aUserOutsideTheInputGroupWithoutTheRuleGetsEachFix() throws {
        let root = try Self.machine(rule: false, rtprio: "0", holder: true)
        defer { root.remove() }
        let result = doctor(root, groups: "1000")
        #expect(result.status == 1)
        #expect(result.error == "")
        #expect(result.output == """
            ok       devices: 1 force-feedback device: /dev/input/event3 Wireless Controller
            problem  access: /dev/input/event3 may not be opened for writing by this user
                     fix: install the udev rule (sudo install -m 0644 Tools/udev/70-haptics.rules /etc/udev/rules.d/, then sudo udevadm control --reload && sudo udevadm trigger --subsystem-match=input) and re-plug the pad, or add yourself to the 'input' group
            warning  udev-rule: the udev rule 70-haptics.rules is not installed (pads the system's own rules do not tag need it)
                     fix: sudo install -m 0644 Tools/udev/70-haptics.rules /etc/udev/rules.d/ && sudo udevadm control --reload && sudo udevadm trigger --subsystem-match=input
            warning  realtime: RLIMIT_RTPRIO is 0: the realtime threads are refused SCHED_FIFO and run at normal priority
                     fix: allow realtime priority, e.g. a file /etc/security/limits.d/95-haptics.conf with the line '@audio - rtprio 95' and yourself in the audio group, then log in again
            ok       sound: 1 sound card: HDA-Intel - HDA Intel PCH
            warning  holders: /dev/input/event3 is open in steam (pid 4242)
                     fix: a game, SDL or Steam holding the pad may play its own effects and use its slots; close it, or 'haptics stop' to end what it plays
            1 problem, 3 warnings

            """)
    }

    @Test func aUserInTheInputGroupWithTheRuleAndRealtimeIsFine() throws {
        let root = try Self.machine(rule: true, rtprio: "95", holder: false, cards: false)
        defer { root.remove() }
        let result = doctor(root, groups: "1000,104", json: true)
        #expect(result.status == 0)
        #expect(result.output.split(separator: "\n").map(String.init) == [
            #"{"schema":1,"type":"doctor-finding","check":"devices","status":"ok","message":"1 force-feedback device: /dev/input/event3 Wireless Controller"}"#,
            #"{"schema":1,"type":"doctor-finding","check":"access","status":"ok","message":"/dev/input/event3 may be opened for reading and writing"}"#,
            #"{"schema":1,"type":"doctor-finding","check":"udev-rule","status":"ok","message":"/etc/udev/rules.d/70-haptics.rules is installed"}"#,
            #"{"schema":1,"type":"doctor-finding","check":"realtime","status":"ok","message":"RLIMIT_RTPRIO is 95: the realtime threads get SCHED_FIFO"}"#,
            #"{"schema":1,"type":"doctor-finding","check":"sound","status":"warning","message":"no sound driver (no /proc/asound): sounds of patterns cannot be heard","fix":"only needed for --audio: load the card's driver, or snd-aloop for sync-test"}"#,
            #"{"schema":1,"type":"doctor-finding","check":"holders","status":"ok","message":"no other process has a force-feedback node open"}"#,
            #"{"schema":1,"type":"doctor","findings":6,"problems":0,"warnings":1}"#,
        ])
    }

    @Test func noPadIsAProblem() throws {
        let root = try TemporaryFolder()
        defer { root.remove() }
        let result = doctor(root, groups: "1000", json: true)
        #expect(result.status == 1)
        #expect(result.output.hasPrefix(#"{"schema":1,"type":"doctor-finding","check":"devices","status":"problem","message":"no force-feedback device is plugged in","#))
    }
}
