import HapticsMeasurement
import Haptics
import HapticsPatterns
import HapticsSystem

/// A run of `haptics latency`: a prepared feedback played `count` times through a traced engine,
/// each trigger's stages timed from the instant before its `play(_:)` call.
struct LatencyMeasurement {
    /// One trigger: when it was called, when the call returned, and its command's stages (`nil`
    /// when none reached the device).
    struct Trigger {
        var called: MonotonicInstant
        var returned: MonotonicInstant
        var command: Trace.Command?
    }

    /// The figures of one stage, microseconds after the call.
    struct Stage {
        var name: String
        var samples: [Double]

        /// The `fraction` percentile, nearest rank.
        func percentile(_ fraction: Double) -> Double {
            samples.sorted().nearestRank(fraction) ?? 0
        }
    }

    /// Every stage's figures, and how many triggers reached no device.
    struct Report {
        var stages: [Stage]
        var count: Int
        var missed: Int

        /// One row per stage: p50, p95, p99, max (µs) and the sample count.
        var table: String {
            func cell(_ value: Double) -> String {
                let text = NumberText.fixed(value, digits: 1)
                return String(repeating: " ", count: max(0, 10 - text.count)) + text
            }
            var text = "stage          p50 µs    p95 µs    p99 µs    max µs      n\n"
            for stage in stages where !stage.samples.isEmpty {
                let name = stage.name + String(repeating: " ", count: max(0, 11 - stage.name.count))
                text += name + cell(stage.percentile(0.5)) + cell(stage.percentile(0.95)) + cell(stage.percentile(0.99))
                    + cell(stage.samples.max() ?? 0) + String(repeating: " ", count: 7 - min(6, "\(stage.samples.count)".count))
                    + "\(stage.samples.count)\n"
            }
            return text
        }

        /// `{"latency": {"feedback", "device", "count", "missed", "stages": {name: {p50_us, p95_us, p99_us, max_us, n}}}}`.
        func jsonObject(feedback: String, device: String, realtime: RealtimeThread.Grant?) -> String {
            var stagesObject = JSONLine()
            for stage in stages where !stage.samples.isEmpty {
                var figures = JSONLine()
                figures.add("p50_us", stage.percentile(0.5), digits: 1)
                figures.add("p95_us", stage.percentile(0.95), digits: 1)
                figures.add("p99_us", stage.percentile(0.99), digits: 1)
                figures.add("max_us", stage.samples.max() ?? 0, digits: 1)
                figures.add("n", stage.samples.count)
                stagesObject.add(stage.name, raw: figures.text)
            }
            var latency = JSONLine()
            latency.add("feedback", feedback)
            latency.add("device", device)
            latency.add("count", count)
            latency.add("missed", missed)
            LatencyMeasurement.add(realtime, to: &latency)
            latency.add("stages", raw: stagesObject.text)
            var line = JSONLine(record: "latency")
            line.append(latency)
            return line.text
        }
    }

    var triggers: [Trigger]
    var trace: Trace
    /// What the system granted the engine's realtime thread.
    var realtime: RealtimeThread.Grant?

    /// `SCHED_FIFO` (and how) or why not, for people: what `latency` prints under its table.
    static func describe(_ grant: RealtimeThread.Grant?) -> String {
        guard let grant else { return "realtime thread: not started" }
        if grant.hasRealtimePriority { return "realtime thread: \(grant.priority)" }
        return "realtime thread: \(grant.priority); 'haptics doctor' says how to allow it"
    }

    /// Adds `realtime` (`fifo`, `rtkit`, `refused`, `normal` or `not-started`), the priority when
    /// realtime, and when refused `realtime_error` (the thread's own request) and `rtkit_error`.
    static func add(_ grant: RealtimeThread.Grant?, to line: inout JSONLine) {
        guard let grant else { return line.add("realtime", "not-started") }
        switch grant.priority {
        case .normal:
            line.add("realtime", "normal")
        case .fifo(let priority):
            line.add("realtime", "fifo")
            line.add("realtime_priority", Int(priority))
        case .fifoThroughRealtimeKit(let priority, _):
            line.add("realtime", "rtkit")
            line.add("realtime_priority", Int(priority))
        case .refused(let errno, let realtimeKit):
            line.add("realtime", "refused")
            line.add("realtime_error", errno.description)
            if let realtimeKit { line.add("rtkit_error", realtimeKit.description) }
        }
    }

    /// Plays `feedback` `count` times on a new engine over `output`, one every `spacing`, tracing,
    /// after one unmeasured trigger (the first one of a process pays for cold code paths).
    /// `receipts` gives the kernel's receipts on a channel once the engine stopped (a uinput sink's).
    static func run(feedback: Feedback, count: Int, spacing: Duration, on output: HapticEngine.Output,
                    receipts: ((Int32) -> [TraceRecord])?, progress: ((Int, Int) -> Void)?) throws(CommandLineError) -> LatencyMeasurement {
        let engine = HapticEngine(outputs: [output])
        do {
            try engine.start()
        } catch {
            throw .failure("cannot start the engine: \(error)")
        }
        engine.prepare(feedback)
        _ = engine.play(feedback)
        SystemMonotonicClock.sleep(until: engine.now + spacing)
        engine.startTracing()
        var triggers: [Trigger] = []
        triggers.reserveCapacity(count)
        var next = engine.now
        for index in 0..<count {
            let called = engine.now
            _ = engine.play(feedback)
            triggers.append(Trigger(called: called, returned: engine.now, command: nil))
            progress?(index + 1, count)
            next = next + spacing
            SystemMonotonicClock.sleep(until: next)
        }
        // A trigger left to the realtime thread on a loaded machine may not be written yet: stopping
        // now would discard it, and it would count as missed.
        _ = engine.waitUntilSent(through: engine.now)
        let realtime = engine.realtimeGrant
        engine.stop()
        engine.stopTracing()
        var trace = engine.collectTrace()
        if let channel = output.path.flatMap({ engine.traceChannel(path: $0) }) ?? trace.devices.first?.channel,
           let receipts {
            trace.records += receipts(channel)
        }
        // Each trigger's command: the first one whose submission began within its call.
        let commands = trace.commands
        var position = 0
        for index in triggers.indices {
            while position < commands.count && commands[position].submitted < triggers[index].called { position += 1 }
            guard position < commands.count, commands[position].submitted <= triggers[index].returned else { continue }
            triggers[index].command = commands[position]
            position += 1
        }
        return LatencyMeasurement(triggers: triggers, trace: trace, realtime: realtime)
    }

    /// The figures per stage.
    var report: Report {
        func micros(_ from: MonotonicInstant, _ to: MonotonicInstant) -> Double {
            Double(to.nanoseconds - from.nanoseconds) / 1_000
        }
        var call: [Double] = [], dequeued: [Double] = [], written: [Double] = [], received: [Double] = []
        var felt: [Double] = [], lateness: [Double] = []
        for trigger in triggers {
            call.append(micros(trigger.called, trigger.returned))
            guard let command = trigger.command else { continue }
            if let instant = command.dequeued { dequeued.append(micros(trigger.called, instant)) }
            written.append(micros(trigger.called, command.written))
            if let instant = command.received { received.append(micros(trigger.called, instant)) }
            felt.append(micros(trigger.called, command.felt))
            lateness.append(micros(command.deadline, command.written))
        }
        return Report(stages: [
            Stage(name: "call", samples: call), Stage(name: "dequeued", samples: dequeued),
            Stage(name: "written", samples: written), Stage(name: "received", samples: received),
            Stage(name: "felt", samples: felt), Stage(name: "lateness", samples: lateness),
        ], count: triggers.count, missed: triggers.filter { $0.command == nil }.count)
    }

    /// One JSON line per trigger: its stages in µs after the call.
    var triggerLines: [String] {
        triggers.enumerated().map { index, trigger in
            var line = JSONLine(record: "trigger")
            line.add("trigger", index + 1)
            line.add("call_us", Double(trigger.returned.nanoseconds - trigger.called.nanoseconds) / 1_000, digits: 1)
            if let command = trigger.command {
                func add(_ key: String, _ instant: MonotonicInstant?) {
                    guard let instant else { return }
                    line.add(key, Double(instant.nanoseconds - trigger.called.nanoseconds) / 1_000, digits: 1)
                }
                add("dequeued_us", command.dequeued)
                add("written_us", command.written)
                add("received_us", command.received)
                add("felt_us", command.felt)
            } else {
                line.add("missed", true)
            }
            return line.text
        }
    }
}
