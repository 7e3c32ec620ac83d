import Testing
@testable import HapticsCommandLine

@Suite("Help of the device commands")
struct DeviceCommandHelpTests {
    @Test("devices --help")
    func devicesHelp() {
        let result = runTool("devices", "--help")
        #expect(result.status == 0)
        #expect(result.output == """
            OVERVIEW: List the force-feedback devices.

            USAGE:
              haptics devices [--json]

            ARGUMENTS AND OPTIONS:
              --json      One JSON object per device, then a summary.
              -h, --help  Show this help.

            Columns: event node, name, bus:vendor:product, force-feedback types, effect slots, and the
            device profile feedback is rendered with. Nodes that may not be opened for writing are listed
            too, with what to do about it. With --json the last line is always the summary, also when
            nothing is found: {"devices":N,"denied":M,"directory":"/dev/input"} (M of the N without access).
            Each JSON line also has the version, uniq (often a MAC address), phys and sdl_guid: the joystick
            GUID SDL gives the same node, to match a game's SDL joystick or a gamecontrollerdb.txt row.
            sdl_hidapi_guid, when SDL's HIDAPI backend could drive the pad through hidraw, is the GUID it
            gives the pad then, with its name CRC (bytes 2-3) zeroed.

            """)
    }

    @Test("info --help")
    func infoHelp() {
        #expect(runTool("info", "--help").output == """
            OVERVIEW: Show one device's identity, capabilities and profile.

            USAGE:
              haptics info <device> [--json]

            ARGUMENTS AND OPTIONS:
              <device>    An event node path (/dev/input/event5) or part of the device's name.
              --json      One JSON object.
              -h, --help  Show this help.

            """)
    }

    @Test("triggers --help lists every effect with its numbers and ranges")
    func triggersHelp() {
        #expect(runTool("triggers", "--help").output == """
            OVERVIEW: Set the adaptive trigger effects of a DualSense.

            USAGE:
              haptics triggers <device> [--left <effect>] [--right <effect>] [--json]

            ARGUMENTS AND OPTIONS:
              <device>          The pad's event node (/dev/input/event5) or part of its name.
              --left <effect>   The left trigger's effect (L2); left as it is when not given.
              --right <effect>  The right trigger's effect (R2); left as it is when not given.
              --json            One JSON object: the node, the effects and the report written.
              -h, --help        Show this help.

            EFFECTS: a name, then its whole numbers after a colon. Zones run from 0 (trigger released)
            to 9 (fully pulled).
              off              no effect, the trigger moves freely
              feedback         resistance from a zone on
                               feedback:zone(0-9),strength(1-8)
              weapon           resistance that gives way at a break point
                               weapon:start(2-7),end(start+1-8),strength(1-8)
              vibration        vibration from a zone on
                               vibration:zone(0-9),amplitude(1-8),frequency(1-255 Hz)
              slope            resistance that slopes from one strength to another
                               slope:start(0-8),end(start+1-9),start-strength(1-8),end-strength(1-8)
              multi-feedback   a resistance per zone
                               multi-feedback:s0,s1,…,s9 (each zone's strength, 0-8)
              multi-vibration  a vibration amplitude per zone
                               multi-vibration:frequency(1-255 Hz),a0,a1,…,a9 (each zone's amplitude, 0-8)
              bow              unofficial: a bow string that snaps back
                               bow:start(0-7),end(start+1-8),strength(1-8),snap-strength(1-8)
              galloping        unofficial: a galloping horse
                               galloping:start(0-8),end(start+1-9),first-foot(0-6),second-foot(first-foot+1-7),frequency(1-255)
              machine          unofficial: a machine alternating between two amplitudes
                               machine:start(0-8),end(start+1-9),amplitude-a(0-7),amplitude-b(0-7),frequency(1-255 Hz),period(0-255 tenths of a second)

            Examples: --right weapon:2,6,8   --left feedback:3,5   --right vibration:4,6,30   --left off

            One output report is written to the pad's hidraw node (found from the event node in
            sysfs), with only the given triggers' enable bits set: rumble, lightbar and LEDs are left
            alone. The effects stay on the pad after the command ends; set them off to end them.

            """)
    }

    @Test("verify --help")
    func verifyHelp() {
        #expect(runTool("verify", "--help").output == """
            OVERVIEW: Try each effect type on a device and report what the kernel accepted.

            USAGE:
              haptics verify <device> [--json]

            ARGUMENTS AND OPTIONS:
              <device>    An event node path (/dev/input/event5) or part of the device's name.
              --json      One JSON object per effect type.
              -h, --help  Show this help.

            Each advertised type (rumble, periodic, constant) is uploaded, played, stopped and erased;
            the gain is set to half and back to full. Capability bits do not prove an effect works, and
            neither does the kernel: it answers an upload and an erase with the driver's verdict
            (accepted, or rejected with the call and errno), but a play, a stop or a gain is only
            written, with no word on what the driver did with it. Each type is reported with what was
            accepted and what was written, as rejected, or as not advertised. The device plays short,
            weak effects while this runs. Exit status 1 when an advertised type is rejected.

            """)
    }

    @Test("emulate --help and help emulate agree")
    func emulateHelp() {
        let direct = runTool("emulate", "--help")
        #expect(direct.output == runTool("help", "emulate").output)
        #expect(direct.output == """
            OVERVIEW: Create a virtual device and print what it is sent, until Ctrl-C.

            USAGE:
              haptics emulate dualsense|rumble-pad [--bluetooth] [--json]

            ARGUMENTS AND OPTIONS:
              dualsense    A DualSense over uhid, driven by the kernel's hid-playstation: prints the motor and trigger bytes of every output report.
              rumble-pad   A 16-slot rumble pad over uinput: prints every upload, play, stop, erase and gain.
              --bluetooth  The DualSense on Bluetooth, sending input reports: SDL's HIDAPI backend can take it.
              --json       One JSON object per line.
              -h, --help   Show this help.

            Needs root (write access to /dev/uhid or /dev/uinput) and, for dualsense, the hid-playstation
            module loaded. Ctrl-C (SIGINT) or SIGTERM destroys the device and exits 0. Other programs
            find the device like any other, e.g. with 'haptics devices'.

            """)
    }
}

@Suite("Device commands without devices")
struct DeviceCommandTests {
    @Test("devices says where it looked when there is nothing; --json prints only the summary")
    func noDevices() {
        let text = runTool("devices")
        #expect(text.status == 0)
        #expect(text.output == "no force-feedback devices in \(emptyInputDirectory)\n")
        let json = runTool("devices", "--json")
        #expect(json.status == 0)
        #expect(json.output == #"{"schema":1,"type":"devices","devices":0,"denied":0,"directory":"\#(emptyInputDirectory)"}"# + "\n")
        #expect(json.error == "")
    }

    @Test("info and verify say exactly why a device cannot be used, and exit 1", arguments: [
        (["info", "/nonexistent/event0"], "haptics info: /nonexistent/event0: open: ENOENT (No such file or directory)\n"),
        (["info", "/dev/null"], "haptics info: /dev/null: libevdev_new_from_fd: ENOTTY (Inappropriate ioctl for device)\n"),
        (["verify", "/dev/null"], "haptics verify: /dev/null: libevdev_new_from_fd: ENOTTY (Inappropriate ioctl for device)\n"),
        (["play", "selection", "--device", "/dev/null"], "haptics play: /dev/null: libevdev_new_from_fd: ENOTTY (Inappropriate ioctl for device)\n"),
    ])
    func unusableDevices(arguments: [String], message: String) {
        let console = BufferConsole()
        let context = CommandContext(console: console, environment: ["HAPTICS_INPUT_DIRECTORY": emptyInputDirectory])
        #expect(HapticsTool.main(arguments: arguments, context: context) == 1)
        #expect(console.errorOutput == message)
        #expect(console.output == "")
    }

    @Test("a name matching no device lists what was looked at")
    func nameWithoutMatch() {
        let result = runTool("verify", "dualsense")
        #expect(result.status == 1)
        #expect(result.error == "haptics verify: no force-feedback device named like 'dualsense' in \(emptyInputDirectory)\n")
    }

    @Test("play without --device falls back to the simulated device and says so")
    func playFallsBackToSimulated() {
        let result = runTool("play", "selection", "--json")
        #expect(result.status == 0)
        #expect(result.error == "no force-feedback device in \(emptyInputDirectory); playing on the simulated device\n")
        #expect(result.output.split(separator: "\n").last?.hasPrefix(#"{"schema":1,"type":"play","feedback":"selection","device":"simulated","profile":"simulated","outcome":"scheduled""#) == true)
    }

    @Test("devices on a folder that does not exist fails and says why")
    func missingDirectory() {
        let result = runTool("devices", inputDirectory: "/nonexistent/input")
        #expect(result.status == 1)
        #expect(result.output == "")
        #expect(result.error == "haptics devices: cannot list /nonexistent/input: No such file or directory\n")
    }

    @Test("the bench commands without a device say so", arguments: ["test", "stop", "gain 1", "rumble 1 1"])
    func benchWithoutDevice(command: String) {
        let arguments = command.split(separator: " ").map(String.init)
        let result = runTool(arguments)
        #expect(result.status == 1)
        #expect(result.output == "")
        #expect(result.error == "haptics \(arguments[0]): no force-feedback device this user may open in \(emptyInputDirectory); 'haptics devices' says why\n")
    }

    @Test("device tables line up their columns")
    func table() {
        #expect(DevicesCommand.table([["PATH", "NAME", "SLOTS"], ["/dev/input/event12", "pad", "16"]]) == """
            PATH                NAME  SLOTS
            /dev/input/event12  pad   16

            """)
    }
}
