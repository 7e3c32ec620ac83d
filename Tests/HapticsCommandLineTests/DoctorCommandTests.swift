import Glibc
import Synchronization
import Testing
@testable import HapticsCommandLine
import HapticsSystem
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

    /// Runs doctor on `root`, for a user with `groups`, from a thread that may not set `SCHED_FIFO`
    /// (as a desktop user) and asks rtkit at `realtimeKit`.
    func doctor(_ root: TemporaryFolder, groups: String, json: Bool = false,
                realtimeKit: String = "unix:path=/nonexistent/haptics-bus") throws -> (status: Int32, output: String, error: String) {
        let unprivilegedProbe: @Sendable (RealtimeKit.Bus) -> RealtimeThread.Priority = { bus in
            let priority = OrderedMutex<RealtimeThread.Priority>(.normal)
            try? onUnprivilegedThread {
                let probed = DoctorChecks.probeRealtimePriority(realtimeKit: bus)
                priority.withLock { $0 = probed }
            }
            return priority.withLock { $0 }
        }
        return DoctorChecks.$realtimeProbe.withValue(unprivilegedProbe) {
            runTool(json ? ["doctor", "--json"] : ["doctor"], environment: [
                "HAPTICS_DOCTOR_ROOT": root.path, "HAPTICS_DOCTOR_UID": "1000", "HAPTICS_DOCTOR_GROUPS": groups,
                "HAPTICS_RTKIT_BUS_ADDRESS": realtimeKit,
            ])
        }
    }

    @Test func aUserOutsideTheInputGroupWithoutTheRuleGetsEachFix() throws {
        let root = try Self.machine(rule: false, rtprio: "0", holder: true)
        defer { root.remove() }
        let result = try doctor(root, groups: "1000")
        #expect(result.status == 1)
        #expect(result.error == "")
        #expect(result.output == """
            ok       devices: 1 force-feedback device: /dev/input/event3 Wireless Controller
            problem  access: /dev/input/event3 may not be opened for writing by this user
                     fix: install the udev rule (sudo install -m 0644 Tools/udev/70-haptics.rules /etc/udev/rules.d/, then sudo udevadm control --reload && sudo udevadm trigger --subsystem-match=input) and re-plug the pad, or add yourself to the 'input' group
            warning  udev-rule: the udev rule 70-haptics.rules is not installed (pads the system's own rules do not tag need it)
                     fix: sudo install -m 0644 Tools/udev/70-haptics.rules /etc/udev/rules.d/ && sudo udevadm control --reload && sudo udevadm trigger --subsystem-match=input
            warning  realtime: the realtime threads run at normal priority: SCHED_FIFO refused (EPERM (Operation not permitted)); no D-Bus at unix:path=/nonexistent/haptics-bus (org.freedesktop.DBus.Error.FileNotFound: Failed to connect to socket /nonexistent/haptics-bus: No such file or directory)
                     fix: start the system bus and install rtkit (Debian: sudo apt install dbus rtkit), or allow realtime priority: a file /etc/security/limits.d/95-haptics.conf with the line '@audio - rtprio 95' and yourself in the audio group, then log in again
            ok       sound: 1 sound card: HDA-Intel - HDA Intel PCH
            warning  holders: /dev/input/event3 is open in steam (pid 4242, Steam)
                     fix: Steam Input drives the pads it configures: turn it off for this pad in Steam's controller settings, or quit Steam; 'haptics stop' ends what it plays
            1 problem, 3 warnings

            """)
    }

    @Test(.enabled(if: canDropPrivileges, "the fake rtkit sets SCHED_FIFO on another thread, which takes root"))
    func aUserInTheInputGroupWithTheRuleAndRtkitIsFine() throws {
        let root = try Self.machine(rule: true, rtprio: "95", holder: false, cards: false)
        defer { root.remove() }
        let bus = try PrivateBus()
        defer { bus.stop() }
        let rtkit = try FakeRealtimeKit(on: bus)
        defer { rtkit.stop() }
        let result = try doctor(root, groups: "1000,104", json: true, realtimeKit: bus.address)
        #expect(result.status == 0)
        #expect(result.output.split(separator: "\n").map(String.init) == [
            #"{"schema":1,"type":"doctor-finding","check":"devices","status":"ok","message":"1 force-feedback device: /dev/input/event3 Wireless Controller"}"#,
            #"{"schema":1,"type":"doctor-finding","check":"access","status":"ok","message":"/dev/input/event3 may be opened for reading and writing"}"#,
            #"{"schema":1,"type":"doctor-finding","check":"udev-rule","status":"ok","message":"/etc/udev/rules.d/70-haptics.rules is installed"}"#,
            #"{"schema":1,"type":"doctor-finding","check":"realtime","status":"ok","message":"the realtime threads get SCHED_FIFO 20 through rtkit (their own request is refused: EPERM (Operation not permitted))"}"#,
            #"{"schema":1,"type":"doctor-finding","check":"sound","status":"warning","message":"no sound driver (no /proc/asound): sounds of patterns cannot be heard","fix":"only needed for --audio: load the card's driver, or snd-aloop for sync-test"}"#,
            #"{"schema":1,"type":"doctor-finding","check":"holders","status":"ok","message":"no other process has a force-feedback node open"}"#,
            #"{"schema":1,"type":"doctor","findings":6,"problems":0,"warnings":1}"#,
        ])
        // The probe thread asked rtkit for itself, at rtkit's maximum.
        #expect(rtkit.receivedCalls.map(\.priority) == [20])
    }

    @Test func withoutRtkitOnTheBusTheFixIsToInstallIt() throws {
        let root = try Self.machine(rule: true, rtprio: "0", holder: false)
        defer { root.remove() }
        let bus = try PrivateBus()
        defer { bus.stop() }
        let result = try doctor(root, groups: "1000,104", realtimeKit: bus.address)
        let lines = result.output.split(separator: "\n").map(String.init)
        let index = try #require(lines.firstIndex { $0.hasPrefix("warning  realtime: ") })
        #expect(lines[index] == "warning  realtime: the realtime threads run at normal priority: SCHED_FIFO refused (EPERM (Operation not permitted)); rtkit is not on the bus (org.freedesktop.DBus.Error.ServiceUnknown: The name org.freedesktop.RealtimeKit1 was not provided by any .service files)")
        #expect(lines[index + 1] == "         fix: install rtkit (Debian: sudo apt install rtkit), or " + DoctorChecks.realtimeLimitsFix)
    }

    @Test func eachRtkitRefusalGetsItsFix() {
        let checks = DoctorChecks(root: "/nonexistent")
        #expect(checks.realtime(.fifo(50)) == .init(check: "realtime", status: .ok, message: "the realtime threads get SCHED_FIFO 50 by themselves"))
        #expect(checks.realtime(.refused(.notPermitted, realtimeKit: .libraryMissing("libdbus-1.so.3: cannot open shared object file"))) == .init(
            check: "realtime", status: .warning,
            message: "the realtime threads run at normal priority: SCHED_FIFO refused (EPERM (Operation not permitted)); libdbus-1 cannot be loaded (libdbus-1.so.3: cannot open shared object file)",
            fix: "install libdbus-1 and rtkit (Debian: sudo apt install libdbus-1-3 rtkit), or " + DoctorChecks.realtimeLimitsFix))
        #expect(checks.realtime(.refused(.notPermitted, realtimeKit: .refused(name: "org.freedesktop.DBus.Error.AccessDenied", message: "Operation not permitted"))).fix
            == "rtkit grants priority to users of an active local session, within its limits; or " + DoctorChecks.realtimeLimitsFix)
    }

    @Test func holdersAreToldApartByWhatTheyAreAndHowTheyOpenedThePad() throws {
        let root = try Self.machine(rule: true, rtprio: "0", holder: false)
        defer { root.remove() }
        // A game linked with SDL, the pad open for reading and writing; evtest, reading only.
        try root.write("game\n", to: "proc/500/comm")
        try root.write("7f00-7f10 r-xp 00000000 08:01 42 /usr/lib/x86_64-linux-gnu/libSDL2-2.0.so.0.2800.4\n", to: "proc/500/maps")
        try root.write("pos:\t0\nflags:\t02004002\nmnt_id:\t25\n", to: "proc/500/fdinfo/9")
        try root.write("", to: "proc/500/fd/.keep")
        #expect(symlink(root.path + "/dev/input/event3", root.path + "/proc/500/fd/9") == 0)
        try root.write("evtest\n", to: "proc/501/comm")
        try root.write("pos:\t0\nflags:\t02004000\nmnt_id:\t25\n", to: "proc/501/fdinfo/3")
        try root.write("", to: "proc/501/fd/.keep")
        #expect(symlink(root.path + "/dev/input/event3", root.path + "/proc/501/fd/3") == 0)
        let result = try doctor(root, groups: "1000,104")
        let lines = result.output.split(separator: "\n").map(String.init)
        let index = try #require(lines.firstIndex { $0.hasPrefix("warning  holders: ") })
        #expect(lines[index] == "warning  holders: /dev/input/event3 is open in game (pid 500, SDL, open for writing), evtest (pid 501, read only)")
        #expect(lines[index + 1] == "         fix: an SDL program (a game) may upload its own effects and use the pad's slots: quit it; 'haptics stop' ends what it plays")
    }

    @Test func aReadOnlyHolderCannotPlaySoStopIsNotTheFix() throws {
        let root = try Self.machine(rule: true, rtprio: "0", holder: false)
        defer { root.remove() }
        try root.write("evtest\n", to: "proc/501/comm")
        try root.write("pos:\t0\nflags:\t0100000\nmnt_id:\t25\n", to: "proc/501/fdinfo/3")
        try root.write("", to: "proc/501/fd/.keep")
        #expect(symlink(root.path + "/dev/input/event3", root.path + "/proc/501/fd/3") == 0)
        let result = try doctor(root, groups: "1000,104", json: true)
        #expect(result.output.split(separator: "\n").contains(
            #"{"schema":1,"type":"doctor-finding","check":"holders","status":"warning","message":"/dev/input/event3 is open in evtest (pid 501, read only)","fix":"a program holding the pad may play its own effects and use its slots: close it"}"#))
    }

    /// `machine`'s pad made a DualSense on USB: its ids, a hidraw node above its input device, and
    /// sound card 1 on the same USB device (its interface a sibling of the input device).
    static func dualSense(_ root: TemporaryFolder, card: Bool) throws {
        for (name, value) in [("bustype", "0003"), ("vendor", "054c"), ("product", "0ce6")] {
            try root.write(value + "\n", to: "sys/class/input/event3/device/id/\(name)")
        }
        try root.write("", to: "sys/class/input/event3/device/hidraw/hidraw3/dev")
        try root.write("", to: "dev/hidraw3")
        #expect(chmod(root.path + "/dev/hidraw3", 0o666) == 0)
        guard card else { return }
        try root.write("Controller\n", to: "sys/class/sound/card1/id")
        try root.write("", to: "sys/class/input/event3/1-2:1.0/.keep")
        #expect(symlink(root.path + "/sys/class/input/event3/1-2:1.0", root.path + "/sys/class/sound/card1/device") == 0)
        try root.write("", to: "dev/snd/pcmC1D0p")
    }

    @Test func aDualSenseOverUSBNeedsItsSoundCardOpenToThisUser() throws {
        let root = try Self.machine(rule: true, rtprio: "0", holder: false)
        defer { root.remove() }
        try Self.dualSense(root, card: true)
        #expect(chmod(root.path + "/dev/snd/pcmC1D0p", 0o666) == 0)
        let open = try doctor(root, groups: "1000,104").output.split(separator: "\n").filter { $0.contains("hd-haptics") }
        #expect(open == ["ok       hd-haptics: /dev/input/event3: HD haptics through hw:1,0 (card 1, Controller)"])
        #expect(chmod(root.path + "/dev/snd/pcmC1D0p", 0o600) == 0)
        let denied = try doctor(root, groups: "1000,104").output.split(separator: "\n").filter { $0.contains("hd-haptics") }
        #expect(denied == ["problem  hd-haptics: /dev/input/event3: HD haptics need /dev/snd/pcmC1D0p, which this user may not open"])
    }

    @Test func aDualSenseOverUSBWithoutASoundCardIsAWarning() throws {
        let root = try Self.machine(rule: true, rtprio: "0", holder: false)
        defer { root.remove() }
        try Self.dualSense(root, card: false)
        let lines = try doctor(root, groups: "1000,104").output.split(separator: "\n").filter { $0.contains("hd-haptics") }
        #expect(lines == ["warning  hd-haptics: /dev/input/event3: no sound card shares the USB device of /dev/input/event3: over Bluetooth the pad has none; over USB, load snd-usb-audio, or name the card"])
    }

    @Test func noPadIsAProblem() throws {
        let root = try TemporaryFolder()
        defer { root.remove() }
        let result = try doctor(root, groups: "1000", json: true)
        #expect(result.status == 1)
        #expect(result.output.hasPrefix(#"{"schema":1,"type":"doctor-finding","check":"devices","status":"problem","message":"no force-feedback device is plugged in","#))
    }

    /// Runs doctor with slot counts given for every node the user may open, and the paths it was asked about.
    func doctor(_ root: TemporaryFolder, groups: String, json: Bool = false, slots: DoctorChecks.SlotUse) throws
        -> (result: (status: Int32, output: String, error: String), probed: [String]) {
        let probed = OrderedMutex<[String]>([])
        let result = try DoctorChecks.$slotProbe.withValue({ path in
            probed.withLock { $0.append(path) }
            return slots
        }) {
            try doctor(root, groups: groups, json: json)
        }
        return (result, probed.withLock { $0 })
    }

    @Test func slotsTakenByOtherOpenersAreCountedBesideTheHoldersItNames() throws {
        let root = try Self.machine(rule: true, rtprio: "0", holder: true)
        defer { root.remove() }
        let (result, probed) = try doctor(root, groups: "1000,104", slots: .init(total: 16, taken: 3))
        #expect(probed == [root.path + "/dev/input/event3"])
        let lines = result.output.split(separator: "\n").map(String.init)
        let index = try #require(lines.firstIndex { $0.hasPrefix("warning  holders: ") })
        #expect(lines[index] == "warning  holders: /dev/input/event3 is open in steam (pid 4242, Steam); 3 of 16 slots taken by other openers")
        #expect(lines[index + 1] == "         fix: Steam Input drives the pads it configures: turn it off for this pad in Steam's controller settings, or quit Steam; 'haptics stop' ends what it plays")
    }

    @Test func slotsTakenByOpenersThisUserCannotSeeAreAWarningWithTheirFields() throws {
        let root = try Self.machine(rule: true, rtprio: "0", holder: false)
        defer { root.remove() }
        let (result, _) = try doctor(root, groups: "1000,104", json: true, slots: .init(total: 8, taken: 2))
        #expect(result.output.split(separator: "\n").contains(
            #"{"schema":1,"type":"doctor-finding","check":"holders","status":"warning","message":"/dev/input/event3 is open in no other process this user may see; 2 of 8 slots taken by other openers","fix":"the effects belong to a program this user cannot see (another user's) and stay until it closes the pad: 'sudo fuser -v /dev/input/event3' names it; close it; 'haptics stop' ends what it plays","slots":8,"slots-taken":2}"#))
    }

    @Test func freeSlotsWithoutHoldersAreFineAndAPadThisUserMayNotOpenIsNotProbed() throws {
        let root = try Self.machine(rule: true, rtprio: "0", holder: false)
        defer { root.remove() }
        let (free, probed) = try doctor(root, groups: "1000,104", json: true, slots: .init(total: 16, taken: 0))
        #expect(probed.count == 1)
        #expect(free.output.split(separator: "\n").contains(
            #"{"schema":1,"type":"doctor-finding","check":"holders","status":"ok","message":"no other process has a force-feedback node open"}"#))
        let (_, unprobed) = try doctor(root, groups: "1000", slots: .init(total: 16, taken: 16))
        #expect(unprobed == [])
    }

    @Test func theProbeCountsNothingOnAFileThatIsNoInputDevice() throws {
        let root = try Self.machine(rule: true, rtprio: "0", holder: false)
        defer { root.remove() }
        #expect(DoctorChecks.probeSlots(root.path + "/dev/input/event3") == nil)
        #expect(DoctorChecks.probeSlots(root.path + "/dev/input/missing") == nil)
    }
}
