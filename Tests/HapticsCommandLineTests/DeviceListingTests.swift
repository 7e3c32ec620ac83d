import CEvdev
import HapticsDevices
import HapticsSystem
import Testing
@testable import HapticsCommandLine
import HapticsVirtualDevices

@Suite("Device listings and emulator lines")
struct DeviceListingTests {
    static let dualSense = EvdevDeviceInfo(
        path: "/dev/input/event5", name: "Sony Interactive Entertainment Wireless Controller",
        id: InputID(bus: 0x03, vendor: 0x054C, product: 0x0CE6, version: 0x8111), physicalLocation: "usb-1/input0",
        uniqueIdentifier: "c0:ff:ee:00:00:01",
        forceFeedbackCodes: [.rumble, .periodic, .square, .triangle, .sine, .gain], slots: 16)
    static let locked = EvdevDeviceInfo(
        path: "/dev/input/event12", name: "Wheel", id: InputID(bus: 0x03, vendor: 0x046D, product: 0xC24F, version: 1),
        physicalLocation: "", uniqueIdentifier: "", forceFeedbackCodes: [.constant, .autocenter],
        slots: 8, accessError: .permissionDenied(path: "/dev/input/event12"))

    @Test("the table has one row per device, profiles from the catalog, and the udev hint per locked node")
    func table() {
        #expect(DevicesCommand.format([Self.dualSense, Self.locked], directory: "/dev/input", json: false) == """
            PATH                NAME                                                ID              FF                    SLOTS  PROFILE
            /dev/input/event5   Sony Interactive Entertainment Wireless Controller  0003:054c:0ce6  rumble,periodic,gain  16     dualsense
            /dev/input/event12  Wheel                                               0003:046d:c24f  constant,autocenter   8      (no access)
            note: /dev/input/event12: permission denied; install Tools/udev/70-haptics.rules (TAG+="uaccess" for force-feedback event nodes) and re-plug the device, or add yourself to the 'input' group

            """)
    }

    @Test("--json has the identity with the SDL GUID, every capability code by name, the profile, and the access, then the summary")
    func json() {
        // No sysfs: a USB pad's release number (for sdl_hidapi_guid) is not read from this machine's.
        #expect(DevicesCommand.format([Self.dualSense, Self.locked], directory: "/dev/input", json: true,
                                      sysfsRoot: "/nonexistent") == """
            {"schema":1,"type":"device","path":"/dev/input/event5","name":"Sony Interactive Entertainment Wireless Controller","bus":"0003","vendor":"054c","product":"0ce6","version":"8111","uniq":"c0:ff:ee:00:00:01","phys":"usb-1/input0","sdl_guid":"0300d0424c050000e60c000011810000","ff":["rumble","periodic","square","triangle","sine","gain"],"slots":16,"profile":"dualsense","access":"read-write"}
            {"schema":1,"type":"device","path":"/dev/input/event12","name":"Wheel","bus":"0003","vendor":"046d","product":"c24f","version":"0001","uniq":"","phys":"","sdl_guid":"030052ce6d0400004fc2000001000000","ff":["constant","autocenter"],"slots":8,"profile":"constant-force-wheel","access":"denied","error":"/dev/input/event12: permission denied; install Tools/udev/70-haptics.rules (TAG+=\\"uaccess\\" for force-feedback event nodes) and re-plug the device, or add yourself to the 'input' group"}
            {"schema":1,"type":"devices","devices":2,"denied":1,"directory":"/dev/input"}

            """)
    }

    @Test("--json has the GUID SDL's HIDAPI backend gives a Bluetooth pad")
    func hidapiGUID() {
        var pad = Self.dualSense
        pad.id.bus = 0x05
        let line = DevicesCommand.jsonLine(pad, sysfsRoot: "/nonexistent")
        #expect(line.contains(#""sdl_guid":"0500d0424c050000e60c000011810000","sdl_hidapi_guid":"030000004c050000e60c000000006800","#))
    }

    /// A device whose name and strings (the kernel's, set by whoever made the device: a uinput or
    /// uhid device can be named anything) hold terminal controls.
    static let hostile = EvdevDeviceInfo(
        path: "/dev/input/event7", name: "Pad\u{1B}]0;pwned\u{07}\u{9B}2J",
        id: InputID(bus: 0x03, vendor: 0x054C, product: 0x0CE6, version: 1), physicalLocation: "usb\u{1B}[2J",
        uniqueIdentifier: "\u{202E}cba", forceFeedbackCodes: [.rumble], slots: 16,
        accessError: .permissionDenied(path: "/dev/input/event7\u{1B}[0m"))

    @Test("device names and paths from outside are printed escaped, in the table and in JSON")
    func hostileNames() {
        let table = DevicesCommand.format([Self.hostile], directory: "/dev/\u{9B}input", json: false)
        #expect(table.contains(#"/dev/input/event7  Pad\u{1B}]0;pwned\u{07}\u{9B}2J  0003:054c:0ce6"#))
        #expect(table.contains(#"note: /dev/input/event7\u{1B}[0m: permission denied;"#))
        #expect(table.unicodeScalars.allSatisfy { $0 == "\n" || !PrintableText.needsEscaping($0) })
        #expect(DevicesCommand.format([], directory: "/dev/\u{9B}input", json: false) == #"no force-feedback devices in /dev/\u{9B}input"# + "\n")
        let json = DevicesCommand.format([Self.hostile], directory: "/dev/\u{9B}input", json: true)
        #expect(json.contains(#""name":"Pad\u001b]0;pwned\u0007\u009b2J""#))
        #expect(json.contains(#""directory":"/dev/\u009binput""#))
        #expect(json.unicodeScalars.allSatisfy { $0 == "\n" || !PrintableText.needsEscaping($0) })
        let report = VerifyCommand.format(Self.verified, name: Self.hostile.name, path: Self.hostile.path, json: false)
        #expect(report.hasPrefix(#"Pad\u{1B}]0;pwned\u{07}\u{9B}2J (/dev/input/event7)"# + "\n"))
    }

    static let verified: [EffectVerification] = [
        EffectVerification(kind: .rumble, outcome: .accepted, accepted: [.upload, .erase], written: [.play, .stop]),
        EffectVerification(kind: .periodic, outcome: .rejected(SystemCallError(call: "EVIOCSFF", errno: .invalidArgument)),
                           waveform: .sine),
        EffectVerification(kind: .constant, outcome: .notAdvertised),
        EffectVerification(kind: .gain, outcome: .written, written: [.halfGain, .fullGain]),
    ]

    @Test("verify says per type what the driver accepted, what was only written, and what it rejected")
    func verifyReport() {
        #expect(VerifyCommand.format(Self.verified, name: "pad", path: "/dev/input/event5", json: false) == """
            pad (/dev/input/event5)
              rumble    upload and erase accepted; play and stop written
              periodic  rejected: EVIOCSFF: EINVAL (Invalid argument); waveform sine
              constant  not advertised
              gain      half gain and full gain written
            written: the kernel took the event but does not say whether the driver acted on it

            """)
    }

    @Test("verify --json has the same words and the steps by name")
    func verifyJSON() {
        #expect(VerifyCommand.format(Self.verified, name: "pad", path: "/dev/input/event5", json: true) == """
            {"schema":1,"type":"effect-check","device":"/dev/input/event5","effect":"rumble","result":"accepted","checked":"upload and erase accepted; play and stop written","accepted":["upload","erase"],"written":["play","stop"]}
            {"schema":1,"type":"effect-check","device":"/dev/input/event5","effect":"periodic","result":"rejected","call":"EVIOCSFF","errno":22,"error":"EINVAL (Invalid argument)","checked":"rejected: EVIOCSFF: EINVAL (Invalid argument)","accepted":[],"written":[],"waveform":"sine"}
            {"schema":1,"type":"effect-check","device":"/dev/input/event5","effect":"constant","result":"not-advertised","checked":"not advertised","accepted":[],"written":[]}
            {"schema":1,"type":"effect-check","device":"/dev/input/event5","effect":"gain","result":"written","checked":"half gain and full gain written","accepted":[],"written":["half-gain","full-gain"]}

            """)
    }

    @Test("verify leaves out the note on written calls when nothing was written")
    func verifyReportWithoutWrites() {
        #expect(VerifyCommand.format([EffectVerification(kind: .constant, outcome: .notAdvertised)], name: "pad",
                                     path: "/dev/input/event5", json: false) == """
            pad (/dev/input/event5)
              constant  not advertised

            """)
    }

    @Test("emulate prints each record of the rumble pad with the time since it started")
    func rumblePadLines() throws {
        let command = try EmulateCommand(arguments: ["rumble-pad"])
        let json = try EmulateCommand(arguments: ["rumble-pad", "--json"])
        let origin = MonotonicInstant(nanoseconds: 1_000_000_000)
        let upload = UInputForceFeedbackRecord(
            event: .upload(UploadedForceFeedbackEffect(type: UInt16(FF_RUMBLE), id: 2, direction: 0, replayLength: 100, replayDelay: 0,
                                                       parameters: .rumble(strongMagnitude: 0x8000, weakMagnitude: 0x4000)), previous: nil),
            timestamp: origin + .microseconds(12_340))
        #expect(command.line(for: upload, origin: origin) == "+12.3 ms  upload effect 2: rumble strong 32768 weak 16384, 100 ms")
        #expect(json.line(for: upload, origin: origin)
                == #"{"schema":1,"type":"ff-event","t_ms":12.3,"event":"upload","effect":2,"length_ms":100,"effect_type":"rumble","strong":32768,"weak":16384}"#)
        let play = UInputForceFeedbackRecord(event: .play(effectID: 2, count: 1), timestamp: origin + .milliseconds(20))
        #expect(command.line(for: play, origin: origin) == "+20 ms  play effect 2 ×1")
        #expect(json.line(for: play, origin: origin) == #"{"schema":1,"type":"ff-event","t_ms":20,"event":"play","effect":2,"count":1}"#)
        let gain = UInputForceFeedbackRecord(event: .gain(0x7FFF), timestamp: origin)
        #expect(command.line(for: gain, origin: origin) == "+0 ms  gain 32767")
    }

    @Test("emulate prints the DualSense's motor bytes, and says when a report leaves them alone")
    func dualSenseLines() throws {
        let command = try EmulateCommand(arguments: ["dualsense"])
        let origin = MonotonicInstant(nanoseconds: 1_000_000_000)
        var bytes = [UInt8](repeating: 0, count: 63)
        bytes[0] = 0x02
        bytes[1] = 0x02
        bytes[3] = 0x40
        bytes[4] = 0x80
        let rumble = DualSenseOutputReport(bytes: bytes, receivedAt: origin + .milliseconds(5))
        #expect(command.line(for: rumble, origin: origin) == "+5 ms  motors weak 64 strong 128")
        bytes[1] = 0
        let lights = DualSenseOutputReport(bytes: bytes, receivedAt: origin + .milliseconds(6))
        #expect(command.line(for: lights, origin: origin) == "+6 ms  report 0x02: lights, motors unchanged")
        let json = try EmulateCommand(arguments: ["dualsense", "--json"])
        #expect(json.line(for: rumble, origin: origin) == #"{"schema":1,"type":"output-report","t_ms":5,"report":2,"sets_motors":true,"weak":64,"strong":128}"#)
    }
}
