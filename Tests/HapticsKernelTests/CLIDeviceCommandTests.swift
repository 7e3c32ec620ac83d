import CEvdev
import Foundation
import Glibc
import HapticsCommandLine
import HapticsTestSupport
import Synchronization
import HapticsDevices
import Testing
import HapticsSystem
import HapticsVirtualDevices

/// The `haptics` device commands against the real kernel's view of a virtual DualSense.
extension EngineKernelTests {
@Suite struct DeviceCommands {
    @Test func verifyReportsWhatTheDualSenseReallyDoes() throws {
        let controller = try VirtualDualSense()
        defer { controller.close() }
        let node = try #require(try controller.waitForGamepadNode())
        let result = runHaptics(["verify", node])
        #expect(result.error == "")
        #expect(result.status == 0)
        // ff-memless emulates periodic effects with the rumble motors; no constant force. The kernel
        // answers uploads and erases; plays, stops and gains are only written.
        #expect(result.output == """
            \(VirtualDualSense.deviceName) (\(node))
              rumble    upload and erase accepted; play and stop written
              periodic  upload and erase accepted; play and stop written; waveform sine
              constant  not advertised
              gain      half gain and full gain written
            written: the kernel took the event but does not say whether the driver acted on it

            """)
        let json = runHaptics(["verify", node, "--json"])
        #expect(json.status == 0)
        #expect(json.output.split(separator: "\n").map(String.init) == [
            #"{"schema":1,"type":"effect-check","device":"\#(node)","effect":"rumble","result":"accepted","checked":"upload and erase accepted; play and stop written","accepted":["upload","erase"],"written":["play","stop"]}"#,
            #"{"schema":1,"type":"effect-check","device":"\#(node)","effect":"periodic","result":"accepted","checked":"upload and erase accepted; play and stop written","accepted":["upload","erase"],"written":["play","stop"],"waveform":"sine"}"#,
            #"{"schema":1,"type":"effect-check","device":"\#(node)","effect":"constant","result":"not-advertised","checked":"not advertised","accepted":[],"written":[]}"#,
            #"{"schema":1,"type":"effect-check","device":"\#(node)","effect":"gain","result":"written","checked":"half gain and full gain written","accepted":[],"written":["half-gain","full-gain"]}"#,
        ])
    }

    @Test func devicesJSONListsTheDualSenseWithItsProfileAndSlots() throws {
        let controller = try VirtualDualSense()
        defer { controller.close() }
        let node = try #require(try controller.waitForGamepadNode())
        let result = runHaptics(["devices", "--json"])
        #expect(result.status == 0)
        let lines = result.output.split(separator: "\n").map(String.init)
        let line = try #require(lines.first { $0.contains("\"path\":\"\(node)\"") })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["name"] as? String == VirtualDualSense.deviceName)
        #expect(object["bus"] as? String == "0003")
        #expect(object["vendor"] as? String == "054c")
        #expect(object["product"] as? String == "0ce6")
        #expect(object["profile"] as? String == "dualsense")
        #expect(object["slots"] as? Int == 16)
        #expect(object["access"] as? String == "read-write")
        let types = try #require(object["ff"] as? [String])
        #expect(["rumble", "periodic", "gain"].allSatisfy(types.contains))
        #expect(!types.contains("constant"))
        // The last line is the summary: every line before it is a device.
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(lines[lines.count - 1].utf8)) as? [String: Any])
        #expect(summary["devices"] as? Int == lines.count - 1)
        #expect(summary["denied"] as? Int == 0)
        #expect(summary["directory"] as? String == "/dev/input")
    }

    @Test func infoFindsADeviceByPartOfItsName() throws {
        let sink = try UInputForceFeedbackSink(.init(name: "haptics-test info pad", maximumEffects: 4))
        defer { sink.close() }
        let result = runHaptics(["info", "INFO PAD", "--json"])
        #expect(result.error == "")
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(object["path"] as? String == sink.eventNodePath)
        #expect(object["name"] as? String == "haptics-test info pad")
        #expect(object["vendor"] as? String == "1209")
        #expect(object["product"] as? String == "0001")
        #expect(object["ff"] as? [String] == ["rumble"])
        #expect(object["slots"] as? Int == 4)
        #expect(object["profile"] as? String == "generic-rumble")
        #expect(result.output.split(separator: "\n").count == 1)
    }

    @Test func playOnTheDualSenseByPathPreparesPlaysAndEndsSilent() throws {
        let controller = try VirtualDualSense()
        defer { controller.close() }
        let node = try #require(try controller.waitForGamepadNode())
        let result = runHaptics(["play", "impact.heavy", "--device", node, "--json"])
        #expect(result.error == "")
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(object["device"] as? String == node)
        #expect(object["profile"] as? String == "dualsense")
        #expect(object["outcome"] as? String == "scheduled")
        // Felt after the DualSense's rise time (30 ms), measured from just before the play.
        #expect((object["felt_ms"] as? Double).map { $0 >= 30 } == true)
        // The command returns once the engine has stopped: the motors were driven and are at zero.
        #expect(VirtualDualSenseTests.motorStates(controller.waitForOutputReports { VirtualDualSenseTests.motorStates($0).last == [0, 0] })
                == [[0xFF, 0xFF], [0, 0]])
    }

    @Test func emulateRumblePadPrintsWhatItIsSentUntilSIGTERM() throws {
        let console = SharedConsole()
        let finished = DispatchSemaphore(value: 0)
        let status = Mutex<Int32>(-1)
        let thread = Thread {
            let code = HapticsTool.main(arguments: ["emulate", "rumble-pad"], context: CommandContext(console: console))
            status.withLock { $0 = code }
            finished.signal()
        }
        thread.start()
        var node: String?
        #expect(waitUntil { node = DeviceCatalog.discover().first { $0.name == "haptics rumble pad" }?.path; return node != nil })
        let path = try #require(node)

        let pad = try FileDescriptor.open(path, .readWrite)
        var effect = rawRumble(strong: 0x8000, weak: 0x4000)
        try pad.uploadEffect(&effect)
        try pad.writeInputEvent(type: UInt16(EV_FF), code: UInt16(effect.id), value: 1)
        try pad.writeInputEvent(type: UInt16(EV_FF), code: UInt16(effect.id), value: 0)
        try pad.eraseEffect(id: effect.id)
        try pad.close()
        // The emulator prints within 10 ms of each record; then it is told to end, as by `kill`.
        #expect(waitUntil { console.text.contains("erase effect 0") })
        kill(getpid(), SIGTERM)
        #expect(finished.wait(timeout: .now() + 5) == .success)
        #expect(status.withLock { $0 } == 0)

        // Each line after the banner starts with the time since the start: "+12.3 ms  ".
        let lines = console.text.split(separator: "\n").map(String.init)
        #expect(lines.first == "emulating rumble pad on \(path); Ctrl-C to stop")
        #expect(lines.dropFirst().map { $0.drop { $0 != " " }.drop { $0 == " " }.dropFirst(4) }.map(String.init) == [
            "upload effect 0: rumble strong 32768 weak 16384, until stopped",
            "play effect 0 ×1",
            "stop effect 0",
            "stop effect 0",
            "erase effect 0",
        ])
        // Ending destroyed the device.
        #expect(DeviceCatalog.discover().allSatisfy { $0.name != "haptics rumble pad" })
    }

    @Test func emulateBluetoothDualSenseNamesBothNodesAndPrintsTheMotorAndTriggerBytes() throws {
        let console = SharedConsole()
        let finished = DispatchSemaphore(value: 0)
        let status = Mutex<Int32>(-1)
        let thread = Thread {
            let code = HapticsTool.main(arguments: ["emulate", "dualsense", "--bluetooth"], context: CommandContext(console: console))
            status.withLock { $0 = code }
            finished.signal()
        }
        thread.start()
        // "emulating Bluetooth DualSense on /dev/input/event5 and /dev/hidraw0; Ctrl-C to stop"
        #expect(waitUntil { console.text.contains("; Ctrl-C to stop") })
        let banner = try #require(console.text.split(separator: "\n").first.map(String.init))
        let words = banner.split(separator: " ").map(String.init)
        try #require(words.count == 10, "\(banner)")
        #expect(Array(words[0...3]) == ["emulating", "Bluetooth", "DualSense", "on"])
        #expect(words[4].hasPrefix("/dev/input/event") && words[6].hasPrefix("/dev/hidraw"), "\(banner)")

        let pad = try FileDescriptor.open(words[4], .readWrite)
        var effect = rawRumble(strong: 0x8000, weak: 0x4000)
        try pad.uploadEffect(&effect)
        try pad.writeInputEvent(type: UInt16(EV_FF), code: UInt16(effect.id), value: 1)
        #expect(waitUntil { console.text.contains("motors weak 64 strong 128") })
        // A trigger effect written to the hidraw node: the bytes of weapon:2,6,8 on the right.
        let triggers = runHaptics(["triggers", words[4], "--right", "weapon:2,6,8"])
        #expect(triggers.status == 0, "\(triggers.error)")
        #expect(waitUntil { console.text.contains("triggers right 2544000700000000000000\n") })
        try pad.close()
        kill(getpid(), SIGTERM)
        #expect(finished.wait(timeout: .now() + 5) == .success)
        #expect(status.withLock { $0 } == 0)
    }
}
}

/// A console another thread may write to while the test reads it.
final class SharedConsole: Console, @unchecked Sendable {
    private let buffer = Mutex("")
    func write(_ text: String) { buffer.withLock { $0 += text } }
    func writeError(_ text: String) { buffer.withLock { $0 += text } }
    var isTerminal: Bool { false }
    var text: String { buffer.withLock { $0 } }
}
