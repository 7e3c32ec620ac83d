import HapticsPatterns
import HapticsRendering
import HapticsScheduler
import HapticsSystem

extension Trace {
    /// The process id of the engine's threads in the JSON: one track per thread that recorded.
    public static let threadsProcess = 1
    /// The process id of the devices in the JSON: one track per device (`tid` = channel + 1) and
    /// one for the audio output (`tid` = ``audioTrack``).
    public static let devicesProcess = 2
    /// The audio output's track in ``devicesProcess``.
    public static let audioTrack = 65_536

    /// The trace in the Chrome/Perfetto trace-event JSON format (the JSON Object Format:
    /// `traceEvents`, `displayTimeUnit`, `otherData`), timestamps in microseconds since `origin`.
    ///
    /// Tracks: each thread that recorded (the game's threads, `haptics-rt`) and each device, named by
    /// `M` metadata events. Slices (`X`): `submit` on the caller's thread; `queued` (submitted until
    /// the realtime thread took it), `wake` (its timer's armed instant until it woke, with the
    /// deadline it woke for) and `write` (the output's `perform`) on the realtime thread; `rise`
    /// (written until felt) on the device. Instants (`i`): `deadline`, `received`, `felt` on the
    /// device, `audible` on the audio output, stale drops and ignored submissions on the realtime
    /// thread. A `player` argument names the scheduler player (its slot; −1 for none) on
    /// `submit`, `write`, `renew`, `rise`, `audible` and the drops: each sound a pattern player
    /// places carries the id of its first output that plays (its first output when none plays),
    /// as that output's slices do; a feedback's cue, which goes with every device's start, carries
    /// −1. Flow events (`s`, `t`, `f`, id = the submission's number) follow each feedback from the
    /// game's call to the motor; counters (`C`) show each device's motor levels. Lost records are
    /// an instant `trace overflow` and `otherData.lost_records`.
    public func json() -> String {
        var writer = TraceEventWriter(origin: origin)
        writer.metadata("process_name", pid: Self.threadsProcess, tid: 0, name: processName)
        for thread in Set(records.map(\.thread)).sorted() {
            writer.metadata("thread_name", pid: Self.threadsProcess, tid: Int(thread),
                            name: threadNames[thread] ?? "thread \(thread)")
        }
        writer.metadata("process_name", pid: Self.devicesProcess, tid: 0, name: "devices")
        for channel in Set(records.map(\.channel)).filter({ $0 >= 0 }).sorted() {
            let known = device(channel)
            let name = known.map { device in device.path.map { "\(device.name) (\($0))" } ?? device.name } ?? "channel \(channel)"
            writer.metadata("thread_name", pid: Self.devicesProcess, tid: Int(channel) + 1, name: name)
        }
        if records.contains(where: { $0.event == .audible }) {
            writer.metadata("thread_name", pid: Self.devicesProcess, tid: Self.audioTrack, name: "audio output")
        }

        // Flows: begun at `submit`, stepped at `queued` and `write`, ended at the first write's
        // `rise` (or at the last stage a submission reached). Written once every point is known,
        // in time order: the realtime thread may take a command (and write it) before the caller's
        // thread has recorded its submission.
        var submittedTime: [UInt32: MonotonicInstant] = [:]
        var flows: [UInt32: [(pid: Int, tid: Int, at: MonotonicInstant, rank: Int)]] = [:]
        var flowOrder: [UInt32] = []
        for record in records where record.event == .submitted { submittedTime[record.sequence] = record.began }
        // `rank` orders the points of one instant: submit, queued, write, device.
        func point(_ sequence: UInt32, _ rank: Int, pid: Int, tid: Int, at instant: MonotonicInstant) {
            guard sequence != 0, submittedTime[sequence] != nil else { return }
            if flows[sequence] == nil { flowOrder.append(sequence) }
            flows[sequence, default: []].append((pid, tid, instant, rank))
        }
        for record in records {
            let thread = Int(record.thread)
            let sequence = record.sequence
            switch record.event {
            case .submitted:
                writer.slice("submit", category: "submission", pid: Self.threadsProcess, tid: thread,
                             from: record.began, to: record.time,
                             arguments: [("sequence", "\(sequence)"), ("player", "\(record.player)"),
                                         ("deadline_us", writer.microseconds(record.deadline))])
                point(sequence, 0, pid: Self.threadsProcess, tid: thread, at: record.began)
            case .dequeued:
                let queued = min(submittedTime[sequence] ?? record.time, record.time)
                writer.slice("queued", category: "realtime", pid: Self.threadsProcess, tid: thread,
                             from: queued, to: record.time, arguments: [("sequence", "\(sequence)")])
                point(sequence, 1, pid: Self.threadsProcess, tid: thread, at: queued)
            case .emitted, .renewed:
                let name = record.event == .emitted ? "write" : "renew"
                writer.slice(name, category: "realtime", pid: Self.threadsProcess, tid: thread,
                             from: record.began, to: record.time,
                             arguments: [("channel", "\(record.channel)"), ("player", "\(record.player)"),
                                         ("command", JSONString.quoted(Self.text(record.command))),
                                         ("lateness_us", writer.duration(record.began.nanoseconds - record.deadline.nanoseconds))])
                let device = Int(record.channel) + 1
                let rise = self.device(record.channel)?.riseTime ?? .zero
                let felt = record.time.advanced(by: rise)
                let levels = Self.levels(record.command)
                writer.counter("motors \(self.device(record.channel)?.name ?? "channel \(record.channel)")",
                               pid: Self.devicesProcess, at: record.time,
                               values: [("low", NumberText.shortest(levels.low)), ("high", NumberText.shortest(levels.high))])
                guard record.event == .emitted else { continue }
                point(sequence, 2, pid: Self.threadsProcess, tid: thread, at: record.began)
                writer.instant("deadline", pid: Self.devicesProcess, tid: device, at: record.deadline,
                               arguments: [("sequence", "\(sequence)")])
                guard !record.command.isSilent else { continue }
                writer.slice("rise", category: "device", pid: Self.devicesProcess, tid: device, from: record.time, to: felt,
                             arguments: [("sequence", "\(sequence)"), ("player", "\(record.player)"),
                                         ("command", JSONString.quoted(Self.text(record.command)))])
                writer.instant("felt", pid: Self.devicesProcess, tid: device, at: felt, arguments: [("sequence", "\(sequence)")])
                point(sequence, 3, pid: Self.devicesProcess, tid: device, at: record.time)
            case .received:
                writer.instant("received", pid: Self.devicesProcess, tid: Int(record.channel) + 1, at: record.time, arguments: [])
            case .audible:
                writer.instant("audible", pid: Self.devicesProcess, tid: Self.audioTrack, at: record.time,
                               arguments: [("called_us", writer.microseconds(record.began)), ("player", "\(record.player)")])
            case .woke:
                writer.slice("wake", category: "realtime", pid: Self.threadsProcess, tid: thread,
                             from: record.began, to: record.time,
                             arguments: [("deadline_us", writer.microseconds(record.deadline)),
                                         ("after_deadline_us", writer.duration(record.time.nanoseconds - record.deadline.nanoseconds))])
            case .droppedStale, .ignored:
                writer.instant(record.event == .ignored ? "ignored" : "dropped stale", pid: Self.threadsProcess, tid: thread,
                               at: record.time, arguments: [("sequence", "\(sequence)"), ("player", "\(record.player)")])
            }
        }
        // An arrow for each submission that reached a write (one that only set a parameter, or
        // never went past its call, has none to draw).
        for sequence in flowOrder {
            guard let unordered = flows[sequence], unordered.count >= 3 else { continue }
            let points = unordered.sorted { ($0.at, $0.rank) < ($1.at, $1.rank) }
            for (index, point) in points.enumerated() {
                let phase = index == 0 ? "s" : index == points.count - 1 ? "f" : "t"
                writer.flow(phase, sequence, pid: point.pid, tid: point.tid, at: point.at)
            }
        }
        if lost > 0 {
            writer.instant("trace overflow", pid: Self.threadsProcess, tid: 0, at: records.last?.time ?? origin,
                           arguments: [("lost_records", "\(lost)")], scope: "g")
        }
        return writer.finish(otherData: [("clock", JSONString.quoted("CLOCK_MONOTONIC")),
                                         ("origin_ns", "\(origin.nanoseconds)"), ("lost_records", "\(lost)")])
    }

    /// A command as the trace shows it: `rumble 0.5/0.25`, `periodic sine 20 ms 0.5`, `stop`.
    static func text(_ command: ActuatorCommand) -> String {
        switch command {
        case let .rumble(strong, weak):
            return "rumble \(NumberText.fixed(Double(strong) / 65_535, digits: 3))/\(NumberText.fixed(Double(weak) / 65_535, digits: 3))"
        case let .periodic(waveform, period, magnitude):
            return "periodic \(waveform) \(period) ms \(NumberText.fixed(Double(magnitude) / 32_767, digits: 3))"
        case let .constant(level):
            return "constant \(NumberText.fixed(Double(level) / 32_767, digits: 3))"
        case .stop:
            return "stop"
        }
    }

    /// A command's motor levels, 0…1: rumble's strong (low) and weak (high) motor; a periodic or
    /// constant effect's magnitude on both.
    static func levels(_ command: ActuatorCommand) -> (low: Double, high: Double) {
        switch command {
        case let .rumble(strong, weak): return (Double(strong) / 65_535, Double(weak) / 65_535)
        case let .periodic(_, _, magnitude): return (Double(magnitude.magnitude) / 32_768, Double(magnitude.magnitude) / 32_768)
        case let .constant(level): return (Double(level.magnitude) / 32_768, Double(level.magnitude) / 32_768)
        case .stop: return (0, 0)
        }
    }
}

/// Writes trace events as JSON text, one object per line inside `traceEvents`.
struct TraceEventWriter {
    let origin: MonotonicInstant
    private var text = "{\"traceEvents\":[\n"
    private var first = true

    init(origin: MonotonicInstant) {
        self.origin = origin
    }

    /// Microseconds since the origin, to the nanosecond: `1234.567`.
    func microseconds(_ instant: MonotonicInstant) -> String {
        duration(instant.nanoseconds - origin.nanoseconds)
    }

    /// Nanoseconds as microseconds, to the nanosecond.
    func duration(_ nanoseconds: Int64) -> String {
        let sign = nanoseconds < 0 ? "-" : ""
        let magnitude = nanoseconds.magnitude
        let fraction = String(magnitude % 1_000)
        return "\(sign)\(magnitude / 1_000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }

    mutating func metadata(_ name: String, pid: Int, tid: Int, name value: String) {
        event("\"name\":\"\(name)\",\"ph\":\"M\",\"pid\":\(pid),\"tid\":\(tid),\"args\":{\"name\":\(JSONString.quoted(value))}")
    }

    mutating func slice(_ name: String, category: String, pid: Int, tid: Int, from start: MonotonicInstant,
                        to end: MonotonicInstant, arguments: [(String, String)]) {
        event("\"name\":\"\(name)\",\"cat\":\"\(category)\",\"ph\":\"X\",\"ts\":\(microseconds(start)),"
              + "\"dur\":\(duration(max(0, end.nanoseconds - start.nanoseconds))),\"pid\":\(pid),\"tid\":\(tid)"
              + Self.arguments(arguments))
    }

    mutating func instant(_ name: String, pid: Int, tid: Int, at instant: MonotonicInstant,
                          arguments: [(String, String)], scope: String = "t") {
        event("\"name\":\"\(name)\",\"cat\":\"stage\",\"ph\":\"i\",\"s\":\"\(scope)\",\"ts\":\(microseconds(instant)),"
              + "\"pid\":\(pid),\"tid\":\(tid)" + Self.arguments(arguments))
    }

    mutating func flow(_ phase: String, _ id: UInt32, pid: Int, tid: Int, at instant: MonotonicInstant) {
        let binding = phase == "f" ? ",\"bp\":\"e\"" : ""
        event("\"name\":\"feedback\",\"cat\":\"flow\",\"ph\":\"\(phase)\",\"id\":\(id),\"ts\":\(microseconds(instant)),"
              + "\"pid\":\(pid),\"tid\":\(tid)\(binding)")
    }

    mutating func counter(_ name: String, pid: Int, at instant: MonotonicInstant, values: [(String, String)]) {
        event("\"name\":\(JSONString.quoted(name)),\"cat\":\"device\",\"ph\":\"C\",\"ts\":\(microseconds(instant)),"
              + "\"pid\":\(pid),\"tid\":0" + Self.arguments(values))
    }

    mutating func finish(otherData: [(String, String)]) -> String {
        text += "\n],\"displayTimeUnit\":\"ms\",\"otherData\":{"
        text += otherData.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",")
        text += "}}\n"
        return text
    }

    private mutating func event(_ body: String) {
        if !first { text += ",\n" }
        first = false
        text += "{" + body + "}"
    }

    private static func arguments(_ arguments: [(String, String)]) -> String {
        guard !arguments.isEmpty else { return "" }
        return ",\"args\":{" + arguments.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }
}
