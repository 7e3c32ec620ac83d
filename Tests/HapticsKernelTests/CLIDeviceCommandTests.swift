import Foundation
import HapticsCommandLine
import HapticsDevices
import Testing

/// The `haptics` device commands against the real kernel's view of a virtual DualSense.
extension EngineKernelTests {
@Suite struct DeviceCommands {
    func run(_ arguments: [String]) -> (status: Int32, output: String, error: String) {
        let console = BufferConsole()
        let status = HapticsTool.main(arguments: arguments, context: CommandContext(console: console))
        return (status, console.output, console.errorOutput)
    }

    @Test func verifyReportsWhatTheDualSenseReallyDoes() throws {
        let controller = try VirtualDualSense()
        defer { controller.close() }
        let node = try #require(try controller.waitForGamepadNode())
        let result = run(["verify", node])
        #expect(result.error == "")
        #expect(result.status == 0)
        // ff-memless emulates periodic effects with the rumble motors; no constant force.
        #expect(result.output == """
            \(VirtualDualSense.deviceName) (\(node))
              rumble    works
              periodic  works
              constant  not advertised
              gain      works

            """)
    }

    @Test func devicesJSONListsTheDualSenseWithItsProfileAndSlots() throws {
        let controller = try VirtualDualSense()
        defer { controller.close() }
        let node = try #require(try controller.waitForGamepadNode())
        let result = run(["devices", "--json"])
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
    }

    @Test func infoFindsADeviceByPartOfItsName() throws {
        let sink = try UInputForceFeedbackSink(.init(name: "haptics-test info pad", maximumEffects: 4))
        defer { sink.close() }
        let result = run(["info", "INFO PAD", "--json"])
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
}
}
