import Foundation
import HapticsCommandLine
import HapticsVirtualDevices
import Testing

/// `haptics latency` in the kernel: on a uinput device it creates (the kernel's receipt of each
/// write measured too) and on a virtual DualSense bound by hid-playstation.
extension EngineKernelTests {
@Suite struct LatencyCommand {
    func run(_ arguments: [String]) -> (status: Int32, output: String, error: String) {
        runHaptics(arguments)
    }

    func stages(_ line: String) throws -> [String: [String: Double]] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        return try #require(object["stages"] as? [String: [String: Double]])
    }

    @Test func onAUInputDeviceEveryTriggerIsReceivedByTheKernelBetweenItsCallAndItsWriteReturning() throws {
        let result = run(["latency", "--device", "uinput", "--count", "30", "--json"])
        #expect(result.status == 0, "\(result.error)")
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 31)
        #expect(lines.dropLast().allSatisfy { $0.contains("\"received_us\":") })
        let figures = try stages(try #require(lines.last))
        for stage in ["call", "dequeued", "written", "received", "felt", "lateness"] {
            #expect(figures[stage]?["n"] == 30, "\(stage)")
        }
        // The kernel stamps the event inside the write: after the realtime thread took the start,
        // before the write returned.
        #expect(figures["received"]!["p50_us"]! >= figures["dequeued"]!["p50_us"]!)
        #expect(figures["received"]!["p50_us"]! <= figures["written"]!["p50_us"]!)
    }

    @Test func onAVirtualDualSenseTheDriversOutputReportArrivesAfterTheWrite() throws {
        let result = run(["latency", "--device", "dualsense", "--count", "20", "--json"])
        #expect(result.status == 0, "\(result.error)")
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 21)
        let figures = try stages(try #require(lines.last))
        #expect(figures["written"]?["n"] == 20)
        #expect(figures["received"]?["n"] == 20, "\(result.output)")   // every trigger's report
        // hid-playstation sends the report from a worker, after the write began (after the command
        // was taken from the queue); on the guest's one processor the worker may run before the
        // game's thread is back from write(), so it is not ordered against "written".
        #expect(figures["received"]!["p50_us"]! > figures["dequeued"]!["p50_us"]!)
        // The DualSense profile's rise time separates felt from written.
        #expect(figures["felt"]!["p50_us"]! > figures["written"]!["p50_us"]!)
    }

    @Test func onAnEventNodeTheStagesUpToTheWriteAreMeasured() throws {
        let controller = try VirtualDualSense()
        defer { controller.close() }
        let node = try #require(try controller.waitForGamepadNode())
        let result = run(["latency", "--device", node, "--count", "10", "--json"])
        #expect(result.status == 0, "\(result.error)")
        let figures = try stages(try #require(result.output.split(separator: "\n").last.map(String.init)))
        #expect(figures["written"]?["n"] == 10)
        #expect(figures["received"] == nil)
    }
}
}
