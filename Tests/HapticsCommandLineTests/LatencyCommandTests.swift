import HapticsMeasurement
import Foundation
import Glibc
import HapticsPatterns
import HapticsSystem
import Testing
@testable import HapticsCommandLine
import HapticsTestSupport

@Suite("latency and --trace")
struct LatencyCommandTests {
    @Test("latency on the simulated device reports every stage of every trigger, then one JSON object")
    func latencyJSON() throws {
        let result = runTool("latency", "--device", "simulated", "--count", "5", "--json")
        #expect(result.status == 0, "\(result.error)")
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 6)
        for (index, line) in lines.dropLast().enumerated() {
            #expect(line.hasPrefix("{\"schema\":1,\"type\":\"trigger\",\"trigger\":\(index + 1),\"call_us\":"))
            // The simulated device has no kernel to receive it.
            #expect(line.contains("\"dequeued_us\":") && line.contains("\"written_us\":") && line.contains("\"felt_us\":"))
            #expect(!line.contains("received_us") && !line.contains("missed"))
        }
        let last = try #require(lines.last)
        #expect(last.hasPrefix(#"{"schema":1,"type":"latency","feedback":"impact.heavy","device":"simulated","count":5,"missed":0,"realtime":"#))
        // Whatever the machine granted, it is said: fifo (directly or through rtkit) and the priority,
        // or refused with the errno.
        #expect(last.contains(#""realtime":"fifo","realtime_priority":50,"stages":"#) || last.contains(#""realtime":"rtkit","realtime_priority":"#)
            || last.contains(#""realtime":"refused","realtime_error":"#))
        for stage in ["call", "dequeued", "written", "felt", "lateness"] {
            #expect(last.contains("\"\(stage)\":{\"p50_us\":"), "\(stage)")
        }
        #expect(last.components(separatedBy: "\"n\":5}").count == 6)
        #expect(!last.contains("\"received\""))
        // Felt is written + the generic rumble's 60 ms rise time.
        let object = try #require(JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        let stages = try #require(object["stages"] as? [String: [String: Double]])
        let felt = try #require(stages["felt"]?["p50_us"])
        let written = try #require(stages["written"]?["p50_us"])
        #expect(felt - written > 59_000 && felt - written < 61_000)
        #expect(stages["written"]!["p50_us"]! >= stages["dequeued"]!["p50_us"]!)
    }

    @Test("latency prints a table and a histogram, and -o writes the histograms")
    func latencyTable() throws {
        let scratch = try TemporaryFolder()
        defer { scratch.remove() }
        let result = runTool("latency", "--device", "simulated", "--count", "3", "--feedback", "selection", "-o", scratch.path + "/l.svg")
        #expect(result.status == 0)
        let svg = try String(contentsOfFile: scratch.path + "/l.svg", encoding: .utf8)
        #expect(result.error == "wrote \(scratch.path)/l.svg (\(svg.utf8.count) bytes)\n")
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.first == "selection on simulated generic-rumble (simulated), 3 triggers, profile generic-rumble")
        #expect(lines[1] == "stage          p50 µs    p95 µs    p99 µs    max µs      n")
        #expect(lines[2...6].map { String($0.prefix(11)) } == ["call       ", "dequeued   ", "written    ", "felt       ", "lateness   "])
        #expect(lines[2...6].allSatisfy { $0.hasSuffix(" 3") })
        #expect(result.output.contains("call → written (3 samples)\n"))
        #expect(svg.hasPrefix("<svg") && svg.contains("selection on simulated generic-rumble: latency from the call"))
        #expect(svg.components(separatedBy: "n = 3").count == 6)
    }

    @Test("what the realtime thread got is said in words and in JSON")
    func realtimeGrant() {
        let granted = RealtimeThread.Grant(timerSlack: .nanoseconds(1), threadID: 7, priority: .fifo(50))
        let lent = RealtimeThread.Grant(timerSlack: .nanoseconds(1), threadID: 7, priority: .fifoThroughRealtimeKit(20, refusal: .notPermitted))
        let refused = RealtimeThread.Grant(timerSlack: .nanoseconds(1), threadID: 7, priority: .refused(
            .notPermitted, realtimeKit: .serviceMissing(message: "org.freedesktop.DBus.Error.ServiceUnknown: no rtkit")))
        #expect(LatencyMeasurement.describe(granted) == "realtime thread: SCHED_FIFO 50")
        #expect(LatencyMeasurement.describe(lent) == "realtime thread: SCHED_FIFO 20 through rtkit")
        #expect(LatencyMeasurement.describe(refused) == "realtime thread: normal priority: SCHED_FIFO refused (EPERM (Operation not permitted)); rtkit is not on the bus (org.freedesktop.DBus.Error.ServiceUnknown: no rtkit); 'haptics doctor' says how to allow it")
        #expect(LatencyMeasurement.describe(nil) == "realtime thread: not started")
        var line = JSONLine()
        LatencyMeasurement.add(refused, to: &line)
        #expect(line.text == #"{"realtime":"refused","realtime_error":"EPERM (Operation not permitted)","rtkit_error":"rtkit is not on the bus (org.freedesktop.DBus.Error.ServiceUnknown: no rtkit)"}"#)
        var lentLine = JSONLine()
        LatencyMeasurement.add(lent, to: &lentLine)
        #expect(lentLine.text == #"{"realtime":"rtkit","realtime_priority":20}"#)
    }

    @Test("latency refuses a count it cannot run")
    func latencyUsage() {
        #expect(runTool("latency", "--count", "0").error == "haptics latency: --count needs a whole number from 1 to 100000, not '0'. See 'haptics latency --help'.\n")
        #expect(runTool("latency", "--count", "0").status == 64)
        #expect(runTool("latency", "--feedback", "impact.huge").status == 64)
    }

    @Test("play --trace writes the run's trace as trace-event JSON")
    func playTrace() throws {
        let scratch = try TemporaryFolder()
        defer { scratch.remove() }
        let result = runTool("play", "impact.heavy", "--device", "simulated", "--json", "--trace", scratch.path + "/t.json")
        #expect(result.status == 0)
        let data = try Data(contentsOf: URL(fileURLWithPath: scratch.path + "/t.json"))
        let object = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        let events = try #require(object["traceEvents"] as? [[String: Any]])
        let names = Set(events.compactMap { $0["name"] as? String })
        #expect(names.isSuperset(of: ["submit", "queued", "write", "rise", "felt", "deadline", "feedback", "thread_name", "process_name"]))
        #expect(events.contains { ($0["args"] as? [String: Any])?["name"] as? String == "haptics-rt" })
        #expect((object["otherData"] as? [String: Any])?["lost_records"] as? Int == 0)
    }

    @Test("demo --trace writes one trace of every item")
    func demoTrace() throws {
        let scratch = try TemporaryFolder()
        defer { scratch.remove() }
        let result = runTool("demo", "--json", "--trace", scratch.path + "/d.json")
        #expect(result.status == 0)
        let data = try Data(contentsOf: URL(fileURLWithPath: scratch.path + "/d.json"))
        let object = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        let events = try #require(object["traceEvents"] as? [[String: Any]])
        // One flow ends at the motor per item played.
        let ends = events.filter { $0["ph"] as? String == "f" && $0["pid"] as? Int == 2 }
        #expect(ends.count == Feedback.vocabulary.count)
    }
}

/// The installed tool as a user without realtime privileges runs it: a child process the kernel
/// refuses `SCHED_FIFO` (no CAP_SYS_NICE, RLIMIT_RTPRIO 0), pointed at a fake rtkit on a private bus
/// by `HAPTICS_RTKIT_BUS_ADDRESS`.
@Suite("latency with rtkit")
struct LatencyRealtimeKitTests {
    @Test(.enabled(if: canDropPrivileges && access("/usr/bin/setpriv", X_OK) == 0,
                   "the fake rtkit sets SCHED_FIFO on another process's thread, which takes root (and setpriv to drop it from the tool)"))
    func latencyReportsTheRealtimeThreadRtkitGranted() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        // rtkit's own limits: this process is the tool's, not the tests'.
        let rtkit = try FakeRealtimeKit(on: bus, behaviour: .init(maximumPriority: 20, runTimeLimit: 200_000))
        defer { rtkit.stop() }
        // The test bundle and the tool are built side by side.
        let folder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        var tool = folder.appendingPathComponent("haptics").path
        if !FileManager.default.isExecutableFile(atPath: tool) {
            tool = folder.deletingLastPathComponent().appendingPathComponent("haptics").path
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", #"ulimit -r 0 && exec /usr/bin/setpriv --bounding-set=-sys_nice --inh-caps=-sys_nice "$@""#, "sh",
                             tool, "latency", "--device", "simulated", "--count", "3", "--json"]
        process.environment = ["HAPTICS_RTKIT_BUS_ADDRESS": bus.address, "PATH": "/usr/bin:/bin", "NO_COLOR": "1"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let last = try #require(text.split(separator: "\n").last)
        #expect(last.contains(#""missed":0,"realtime":"rtkit","realtime_priority":20,"stages":"#), "\(last)")
        // One call, for the engine's realtime thread, at rtkit's maximum, with RLIMIT_RTTIME set.
        let calls = rtkit.receivedCalls
        #expect(calls.map(\.threadName) == ["haptics-rt"])
        #expect(calls.map(\.priority) == [20])
        #expect(calls.map(\.runTimeLimit) == [200_000])
    }
}
