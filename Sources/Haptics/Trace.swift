import HapticsScheduler
import HapticsSystem

/// What an engine recorded while tracing (`HapticEngine.startTracing()`): every stage every command
/// passed, the devices and threads it passed through, and how many records were lost.
///
/// `json()` is the Chrome/Perfetto trace-event format (opens in the Perfetto UI and
/// `chrome://tracing`); `commands` lists, per command that reached a device, the instant of each of
/// its stages (what `haptics latency` reports).
public struct Trace: Sendable {
    /// A device the trace saw: what its track is named, and its rise time (felt = written + rise).
    public struct Device: Sendable, Hashable {
        /// The scheduler channel it plays on (`TraceRecord.channel`).
        public var channel: Int32
        /// A name for people.
        public var name: String
        /// The event node, if any.
        public var path: String?
        /// The profile's rise time: how long after the write the motor is felt.
        public var riseTime: Duration

        /// Creates a device.
        public init(channel: Int32, name: String, path: String?, riseTime: Duration) {
            self.channel = channel
            self.name = name
            self.path = path
            self.riseTime = riseTime
        }
    }

    /// One command that reached a device, stage by stage (all on `CLOCK_MONOTONIC`).
    public struct Command: Sendable, Hashable {
        /// The submission's number (`TraceRecord.sequence`).
        public var sequence: UInt32
        /// The channel it was written to.
        public var channel: Int32
        /// What was written.
        public var command: ActuatorCommand
        /// When the caller's thread began submitting it.
        public var submitted: MonotonicInstant
        /// When the realtime thread took it from the queue; `nil` when the caller's thread wrote it
        /// itself.
        public var dequeued: MonotonicInstant?
        /// When it was due.
        public var deadline: MonotonicInstant
        /// When the output's `write()` returned.
        public var written: MonotonicInstant
        /// When the device was seen receiving it (a uinput sink's event time, a virtual DualSense's
        /// output report), if something observed it.
        public var received: MonotonicInstant?
        /// When it is felt: `written` plus the device's rise time.
        public var felt: MonotonicInstant
    }

    /// Every record, oldest first.
    public var records: [TraceRecord]
    /// The devices the records name.
    public var devices: [Device]
    /// Records lost because the trace ring was full (or the trace held its limit).
    public var lost: Int
    /// When tracing started: timestamps in the JSON count from here.
    public var origin: MonotonicInstant
    /// The process's name, and the name of each thread that recorded something (`nil` entries are
    /// threads that ended before the trace was collected).
    public var processName: String
    /// Thread names by kernel thread id.
    public var threadNames: [Int32: String]

    /// Creates a trace from its parts (`HapticEngine.collectTrace()` makes one).
    public init(records: [TraceRecord], devices: [Device], lost: Int, origin: MonotonicInstant,
                processName: String, threadNames: [Int32: String]) {
        self.records = records
        self.devices = devices
        self.lost = lost
        self.origin = origin
        self.processName = processName
        self.threadNames = threadNames
    }

    /// The device of `channel`, if the trace knows it.
    public func device(_ channel: Int32) -> Device? {
        devices.first { $0.channel == channel }
    }

    /// The commands that reached a device as part of a submission's flow, in the order they were
    /// written, with their stages: per submission its first sounding write (a start that first
    /// silenced the player it replaced writes that stop, then its level), or its first write when
    /// none sounds (a stop). A command's `received` is the first `received` record on its channel
    /// at or after its write began. Records of one command may come in any order (the realtime thread
    /// can write a command before the caller's thread has recorded its submission).
    public var commands: [Command] {
        var submitted: [UInt32: TraceRecord] = [:]
        var dequeued: [UInt32: MonotonicInstant] = [:]
        // Per submission, the position in `records` of the write that stands for it.
        var chosen: [UInt32: Int] = [:]
        for (position, record) in records.enumerated() where record.sequence != 0 {
            switch record.event {
            case .submitted: submitted[record.sequence] = record
            case .dequeued: dequeued[record.sequence] = record.time
            case .emitted:
                if let earlier = chosen[record.sequence], !records[earlier].command.isSilent || record.command.isSilent { continue }
                chosen[record.sequence] = position
            default: break
            }
        }
        var result: [Command] = []
        // Every write per channel, in the order written: when it began, and its index in `result`
        // (−1 for a write that stands for no submission: a pattern's later step, a renewal).
        var writes: [Int32: [(began: MonotonicInstant, index: Int)]] = [:]
        for (position, record) in records.enumerated() where record.event == .emitted || record.event == .renewed {
            guard record.event == .emitted, chosen[record.sequence] == position,
                  let submission = submitted[record.sequence] else {
                writes[record.channel, default: []].append((record.began, -1))
                continue
            }
            let rise = device(record.channel)?.riseTime ?? .zero
            writes[record.channel, default: []].append((record.began, result.count))
            result.append(Command(
                sequence: record.sequence, channel: record.channel, command: record.command,
                submitted: submission.began, dequeued: dequeued[record.sequence], deadline: record.deadline,
                written: record.time, received: nil, felt: record.time.advanced(by: rise)))
        }
        // A command was received when the device first heard from the kernel after its write began:
        // a driver that sends its state from a worker carries every write since its last report in
        // the next one (hid-playstation sends one report for a trigger's two quick writes).
        var receipts: [Int32: [MonotonicInstant]] = [:]
        for record in records where record.event == .received { receipts[record.channel, default: []].append(record.time) }
        for (channel, times) in receipts {
            let sorted = times.sorted()
            for write in writes[channel] ?? [] where write.index >= 0 {
                // The first receipt at or after the write began: a binary search, as a trace holds
                // up to 2^20 records.
                var low = 0, high = sorted.count
                while low < high {
                    let middle = (low + high) / 2
                    if sorted[middle] < write.began { low = middle + 1 } else { high = middle }
                }
                if low < sorted.count { result[write.index].received = sorted[low] }
            }
        }
        return result
    }
}
