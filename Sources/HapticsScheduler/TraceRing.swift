import Synchronization
import HapticsRendering
import HapticsSystem
@_spi(Realtime) import HapticsSystem

/// A multi-producer, single-consumer ring of trace records: any thread appends without allocating
/// or locking (the realtime thread, a game's thread submitting, a thread writing to a device
/// itself), the control side drains. When full, new records are counted as lost rather than
/// overwriting records the consumer may be reading.
struct TraceRing: ~Copyable {
    private let entries: BoundedMPSCQueue<_TraceEntry>
    /// Whether records are recorded (``Scheduler/startTracing()``): one relaxed load for whoever
    /// would record one.
    let isOn = Atomic<Bool>(false)
    /// Records lost to a full ring (`statistics.traceOverflows`).
    let lost = Atomic<Int>(0)

    /// The records the ring holds: `minimumCapacity` rounded up to a power of two.
    var capacity: Int { entries.capacity }

    init(capacity minimumCapacity: Int) {
        entries = BoundedMPSCQueue(minimumCapacity: minimumCapacity, filler: .empty)
    }

    /// Appends a record (the caller checked `isOn`), its `thread` filled in with the calling
    /// thread's id when 0; a full ring counts it in `lost` instead. Any thread.
    ///
    /// Never inlined: it runs only while tracing, and inlined into the processing rules it made
    /// them too large for the compiler to inline their own hot helpers.
    @inline(never)
    func record(_ record: TraceRecord) {
        var record = record
        if record.thread == 0 { record.thread = ThreadIdentity.current }
        if !entries.push(_TraceEntry(record)) { lost.add(1, ordering: .relaxed) }
    }

    /// Moves every available record into `destination`; returns how many. Consumer thread only.
    func drain(into destination: inout [TraceRecord]) -> Int {
        var count = 0
        while let entry = entries.pop() {
            destination.append(entry.record)
            count += 1
        }
        return count
    }
}

/// A trace record as the ring keeps it: plain values only (a public enum is not `BitwiseCopyable`
/// to the queue).
struct _TraceEntry: BitwiseCopyable {
    var event: UInt8
    /// 0 stop, 1 rumble, 2 periodic, 3 constant.
    var commandKind: UInt8
    var waveform: UInt8
    var first: UInt16
    var second: UInt16
    var channel: Int32
    var player: Int32
    var sequence: UInt32
    var thread: Int32
    var deadline: MonotonicInstant
    var began: MonotonicInstant
    var time: MonotonicInstant

    static let empty = _TraceEntry(event: 0, commandKind: 0, waveform: 0, first: 0, second: 0, channel: -1, player: -1,
                                   sequence: 0, thread: 0, deadline: MonotonicInstant(nanoseconds: 0),
                                   began: MonotonicInstant(nanoseconds: 0), time: MonotonicInstant(nanoseconds: 0))

    init(event: UInt8, commandKind: UInt8, waveform: UInt8, first: UInt16, second: UInt16, channel: Int32, player: Int32,
         sequence: UInt32, thread: Int32, deadline: MonotonicInstant, began: MonotonicInstant, time: MonotonicInstant) {
        self.event = event
        self.commandKind = commandKind
        self.waveform = waveform
        self.first = first
        self.second = second
        self.channel = channel
        self.player = player
        self.sequence = sequence
        self.thread = thread
        self.deadline = deadline
        self.began = began
        self.time = time
    }

    init(_ record: TraceRecord) {
        var kind: UInt8 = 0, waveform: UInt8 = 0, first: UInt16 = 0, second: UInt16 = 0
        switch record.command {
        case .stop: break
        case let .rumble(strong, weak): (kind, first, second) = (1, strong, weak)
        case let .periodic(shape, period, magnitude):
            (kind, waveform, first, second) = (2, shape.rawValue, period, UInt16(bitPattern: magnitude))
        case let .constant(level): (kind, first) = (3, UInt16(bitPattern: level))
        }
        self.init(event: record.event.rawValue, commandKind: kind, waveform: waveform, first: first, second: second,
                  channel: record.channel, player: record.player, sequence: record.sequence, thread: record.thread,
                  deadline: record.deadline, began: record.began, time: record.time)
    }

    var record: TraceRecord {
        let command: ActuatorCommand
        switch commandKind {
        case 1: command = .rumble(strong: first, weak: second)
        case 2: command = .periodic(waveform: PeriodicWaveform(rawValue: waveform) ?? .sine, periodMilliseconds: first,
                                    magnitude: Int16(bitPattern: second))
        case 3: command = .constant(level: Int16(bitPattern: first))
        default: command = .stop
        }
        return TraceRecord(event: TraceRecord.Event(rawValue: event) ?? .emitted, channel: channel, player: player,
                           command: command, deadline: deadline, time: time, began: began,
                           sequence: sequence, thread: thread)
    }
}
