import HapticsDevices
@testable import HapticsPatterns
import HapticsRendering
import HapticsScheduler
@testable import Haptics
import HapticsSystem
import HapticsTestSupport
import Testing

@Suite("Traces: stages per command, Chrome/Perfetto trace-event JSON")
struct TraceTests {
    /// An engine on a manual clock with one recording pad on an event node path, tracing.
    struct Rig {
        let clock = ManualClock(start: MonotonicInstant(nanoseconds: 1_000_000_000))
        let pad = RecordingActuator()
        let engine: HapticEngine
        let t0 = MonotonicInstant(nanoseconds: 1_000_000_000)
        static let path = "/dev/input/event-trace-test"

        init(traceCapacity: Int = 4096) {
            engine = HapticEngine(clock: clock, outputs: [HapticEngine.Output(device: pad, profile: .genericRumble,
                                                                               name: "test pad", path: Self.path)],
                                  configuration: .init(scheduler: SchedulerConfiguration(traceCapacity: traceCapacity)))
            engine.startManuallyDriven()
            engine.startTracing()
        }

        /// Plays a heavy impact at t0 — due now, so the engine plays its first level during the call,
        /// on this thread — has the kernel receive it 1.2 ms later, and runs the play to its end.
        func playKnownImpact() {
            #expect(engine.play(.impact(.heavy)) == .scheduled(feltAt: t0 + .milliseconds(60)))
            clock.advance(by: .milliseconds(1))
            engine.process()
            engine.recordDeviceReceipt(at: t0 + .microseconds(1_200), path: Self.path)
            while let next = engine.process(), next < t0 + .seconds(1) { clock.advance(to: next) }
        }
    }

    @Test func aKnownPlayPassesEachStageAtItsInstant() throws {
        let rig = Rig()
        rig.playKnownImpact()
        let trace = rig.engine.collectTrace()
        let first = try #require(rig.pad.recorded.first)
        // Written during the game's call: applied without the queue and written at the call's instant.
        let written = rig.t0
        // Sequence 1 is the play's start, at its intensity.
        #expect(trace.commands == [
            Trace.Command(sequence: 1, channel: 0, command: first.command, submitted: rig.t0, dequeued: written,
                          deadline: rig.t0, written: written, received: rig.t0 + .microseconds(1_200),
                          felt: written + .milliseconds(60)),
        ])
        #expect(trace.devices == [Trace.Device(channel: 0, name: "test pad", path: Rig.path, riseTime: .milliseconds(60))])
        #expect(trace.lost == 0)
        #expect(trace.origin == rig.t0)
        let thread = ThreadIdentity.current
        // The play's start is taken by processing as it is submitted (an immediate group applying
        // directly): its dequeued stage follows its submission.
        #expect(trace.records.filter { $0.event != .emitted }.map(\.event) == [.submitted, .dequeued, .received])
        #expect(trace.records.allSatisfy { $0.thread == thread })
        #expect(trace.threadNames[thread] == ThreadIdentity.name(of: thread))
    }

    @Test func theJSONHoldsEveryStageAsSlicesFlowsAndCounters() throws {
        let rig = Rig()
        rig.playKnownImpact()
        let document = try TraceDocument(rig.engine.collectTrace().json())
        try document.validate()
        let tid = Double(ThreadIdentity.current)
        let stages = document.events.filter { ["submit", "queued", "write", "rise", "felt", "received", "deadline"].contains($0.name) }
        let first = Array(stages.prefix(6)).map(\.summary)
        #expect(first == [
            "submit X 0.000+0.000 1/\(Int(tid))",
            "queued X 0.000+0.000 1/\(Int(tid))",
            "write X 0.000+0.000 1/\(Int(tid))",
            "deadline i 0.000 2/1",
            "rise X 0.000+60000.000 2/1",
            "felt i 60000.000 2/1",
        ])
        #expect(stages.contains { $0.summary == "received i 1200.000 2/1" })
        // One arrow from the game's call to the motor: submit → queued → write → rise, all on the
        // game's thread up to the device.
        let flow = document.events.filter { $0.phase == "s" || $0.phase == "t" || $0.phase == "f" }
        #expect(flow.map(\.summary) == [
            "feedback s 0.000 1/\(Int(tid))", "feedback t 0.000 1/\(Int(tid))",
            "feedback t 0.000 1/\(Int(tid))", "feedback f 0.000 2/1",
        ])
        #expect(flow.allSatisfy { $0.id == 1 })
        let counters = document.events.filter { $0.phase == "C" }
        #expect(counters.count == rig.pad.recorded.count)
        #expect(counters.last?.arguments == ["high": 0, "low": 0])
        #expect(document.metadata == [
            "1/0 process_name": ThreadIdentity.processName ?? "haptics",
            "1/\(Int(tid)) thread_name": ThreadIdentity.name(of: ThreadIdentity.current) ?? "",
            "2/0 process_name": "devices",
            "2/1 thread_name": "test pad (/dev/input/event-trace-test)",
        ])
        #expect(document.otherData["lost_records"] == 0)
    }

    @Test func theRealtimeThreadsTimerWakeUpsAreSlicesOnItsTrack() throws {
        let origin = MonotonicInstant(nanoseconds: 1_000_000_000)
        // Armed 120 µs ahead of a deadline at 500 µs, woke 30 µs after the deadline.
        let woke = TraceRecord(event: .woke, channel: -1, player: -1, command: .stop, deadline: origin + .microseconds(500),
                               time: origin + .microseconds(530), began: origin + .microseconds(380), thread: 41)
        let trace = Trace(records: [woke], devices: [], lost: 0, origin: origin, processName: "game",
                          threadNames: [41: "haptics-rt"])
        let document = try TraceDocument(trace.json())
        try document.validate()
        let wake = document.events.filter { $0.name == "wake" }
        #expect(wake.map(\.summary) == ["wake X 380.000+150.000 1/41"])
        #expect(wake.first?.arguments == ["deadline_us": 500, "after_deadline_us": 30])
        #expect(document.metadata["1/41 thread_name"] == "haptics-rt")
    }

    @Test func aSecondPlayOfAPlayingItemIsTracedForEachWriteItCauses() throws {
        let rig = Rig()
        #expect(rig.engine.play(.impact(.heavy)) == .scheduled(feltAt: rig.t0 + .milliseconds(60)))
        rig.engine.process()
        rig.clock.advance(by: .milliseconds(10))
        let second = rig.t0 + .milliseconds(10)
        #expect(rig.engine.play(.impact(.heavy)) == .scheduled(feltAt: second + .milliseconds(60)))
        rig.engine.process()
        let level = try #require(rig.pad.recorded.first?.command)
        // The item's player is still playing: the second start (submission 2) restarts it from
        // the beginning, its level written once.
        #expect(rig.pad.recorded.map(\.command) == [level, level])
        let trace = rig.engine.collectTrace()
        #expect(trace.commands.map(\.sequence) == [1, 2])
        #expect(trace.commands.map(\.written) == [rig.t0, second])
        let document = try TraceDocument(trace.json())
        try document.validate()
        #expect(Set(document.events.filter { $0.phase == "f" }.compactMap(\.id)) == [1, 2])
    }

    @Test func recordsLostToAFullRingAreReportedInTheTrace() throws {
        let rig = Rig(traceCapacity: 2)
        rig.playKnownImpact()
        let trace = rig.engine.collectTrace()
        #expect(trace.records.count == 2)
        #expect(trace.lost > 0)
        let document = try TraceDocument(trace.json())
        try document.validate()
        #expect(document.otherData["lost_records"] == Double(trace.lost))
        #expect(document.events.contains { $0.name == "trace overflow" && $0.arguments["lost_records"] == Double(trace.lost) })
    }

    @Test func notTracingRecordsNothingAndAStartDiscardsTheLastTrace() throws {
        let rig = Rig()
        rig.engine.stopTracing()
        #expect(!rig.engine.isTracing)
        rig.playKnownImpact()
        #expect(rig.engine.collectTrace().records.isEmpty)
        rig.engine.startTracing()
        #expect(rig.engine.isTracing)
        #expect(rig.engine.collectTrace().records.isEmpty)
    }
}

/// A trace-event JSON document read back with the engine's own JSON reader, and checked against
/// the format: what the Perfetto UI and chrome://tracing need to load it.
struct TraceDocument {
    struct Event {
        var name: String
        var phase: String
        var ts: Double?
        var dur: Double?
        var pid: Double
        var tid: Double
        var id: Double?
        var arguments: [String: Double]
        var textArguments: [String: String]

        var summary: String {
            let time = ts.map { NumberText.fixed($0, digits: 3) } ?? "-"
            let span = dur.map { "+" + NumberText.fixed($0, digits: 3) } ?? ""
            return "\(name) \(phase) \(time)\(span) \(Int(pid))/\(Int(tid))"
        }
    }

    var events: [Event] = []
    var otherData: [String: Double] = [:]
    var displayTimeUnit: String?

    struct Invalid: Error, CustomStringConvertible {
        var description: String
    }

    init(_ text: String) throws {
        var parser = JSONParser(bytes: Array(text.utf8), fileName: "trace.json", maximumDepth: 16)
        let root = try parser.parseDocument()
        guard parser.warnings.isEmpty else { throw Invalid(description: "lenient JSON: \(parser.warnings)") }
        guard case let .object(members) = root.content else { throw Invalid(description: "not an object") }
        for member in members {
            switch (member.key, member.value.content) {
            case let ("traceEvents", .array(values)):
                events = try values.map(Self.event)
            case let ("displayTimeUnit", .string(unit)):
                displayTimeUnit = unit
            case let ("otherData", .object(fields)):
                for field in fields { if case let .number(value, _) = field.value.content { otherData[field.key] = value } }
            default:
                throw Invalid(description: "unexpected top-level key \(member.key)")
            }
        }
    }

    static func event(_ value: JSONValue) throws -> Event {
        guard case let .object(members) = value.content else { throw Invalid(description: "an event is not an object") }
        var fields: [String: JSONValue.Content] = [:]
        for member in members { fields[member.key] = member.value.content }
        func number(_ key: String) -> Double? {
            if case let .number(value, _)? = fields[key] { return value }
            return nil
        }
        guard case let .string(name)? = fields["name"], case let .string(phase)? = fields["ph"] else {
            throw Invalid(description: "event without name or ph at \(value.location)")
        }
        guard let pid = number("pid"), let tid = number("tid") else { throw Invalid(description: "\(name): no pid/tid") }
        var arguments: [String: Double] = [:]
        var texts: [String: String] = [:]
        if case let .object(args)? = fields["args"] {
            for arg in args {
                switch arg.value.content {
                case let .number(value, _): arguments[arg.key] = value
                case let .string(text): texts[arg.key] = text
                default: throw Invalid(description: "\(name): argument \(arg.key) is neither number nor string")
                }
            }
        }
        return Event(name: name, phase: phase, ts: number("ts"), dur: number("dur"), pid: pid, tid: tid, id: number("id"),
                     arguments: arguments, textArguments: texts)
    }

    /// "pid/tid name" → the name a metadata event gives.
    var metadata: [String: String] {
        var result: [String: String] = [:]
        for event in events where event.phase == "M" {
            result["\(Int(event.pid))/\(Int(event.tid)) \(event.name)"] = event.textArguments["name"]
        }
        return result
    }

    /// Checks phases, timestamps, durations, flows and track names.
    func validate() throws {
        guard displayTimeUnit == "ms" else { throw Invalid(description: "displayTimeUnit \(displayTimeUnit ?? "missing")") }
        let names = metadata
        for event in events {
            guard ["X", "i", "s", "t", "f", "C", "M"].contains(event.phase) else { throw Invalid(description: "\(event.name): phase \(event.phase)") }
            guard event.pid == event.pid.rounded(), event.tid == event.tid.rounded() else { throw Invalid(description: "\(event.name): pid/tid not integers") }
            if event.phase == "M" {
                guard ["process_name", "thread_name"].contains(event.name), event.textArguments["name"] != nil else {
                    throw Invalid(description: "metadata \(event.name) without args.name")
                }
                continue
            }
            guard let ts = event.ts, ts.isFinite else { throw Invalid(description: "\(event.name): no ts") }
            if event.phase == "X" {
                guard let dur = event.dur, dur >= 0 else { throw Invalid(description: "\(event.name): X without dur ≥ 0") }
            }
            guard names["\(Int(event.pid))/0 process_name"] != nil else { throw Invalid(description: "pid \(event.pid) has no process_name") }
            if event.phase != "C" && !(event.phase == "i" && event.tid == 0) {
                guard names["\(Int(event.pid))/\(Int(event.tid)) thread_name"] != nil else {
                    throw Invalid(description: "\(event.name): track \(event.pid)/\(event.tid) has no thread_name")
                }
            }
        }
        // Flows: per id one s first and one f last, in time order, each inside a slice of its track.
        let flows = Dictionary(grouping: events.filter { ["s", "t", "f"].contains($0.phase) }) { $0.id ?? -1 }
        for (id, points) in flows {
            guard id >= 0 else { throw Invalid(description: "a flow event without id") }
            guard points.count >= 2, points.first?.phase == "s", points.last?.phase == "f",
                  points.dropFirst().dropLast().allSatisfy({ $0.phase == "t" }) else {
                throw Invalid(description: "flow \(id): phases \(points.map(\.phase))")
            }
            guard zip(points, points.dropFirst()).allSatisfy({ $0.ts! <= $1.ts! }) else { throw Invalid(description: "flow \(id) goes back in time") }
            for point in points {
                let enclosed = events.contains {
                    $0.phase == "X" && $0.pid == point.pid && $0.tid == point.tid && $0.ts! <= point.ts! && point.ts! <= $0.ts! + $0.dur!
                }
                guard enclosed else { throw Invalid(description: "flow \(id): \(point.summary) is in no slice") }
            }
        }
    }
}
