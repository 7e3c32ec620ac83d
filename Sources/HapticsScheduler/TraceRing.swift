import Synchronization
import HapticsRendering
import HapticsSystem

/// A single-producer, single-consumer ring of trace records: the realtime thread appends without
/// allocating, the control side drains. When full, new records are counted as lost rather than
/// overwriting records the consumer may be reading.
struct TraceRing: ~Copyable {
    let capacity: Int
    private let records: UnsafeMutablePointer<TraceRecord>
    /// [0] write position (realtime thread), [8] read position (control side).
    private let positions: UnsafeMutablePointer<Atomic<Int>>

    init(capacity: Int) {
        precondition(capacity >= 1, "TraceRing needs a capacity of at least 1")
        self.capacity = capacity
        records = .allocate(capacity: capacity)
        records.initialize(
            repeating: TraceRecord(event: .emitted, channel: -1, player: -1, command: .stop,
                        deadline: MonotonicInstant(nanoseconds: 0), time: MonotonicInstant(nanoseconds: 0)),
            count: capacity)
        positions = .allocate(capacity: 16)
        for index in 0..<16 { (positions + index).initialize(to: Atomic(0)) }
    }

    deinit {
        records.deinitialize(count: capacity)
        records.deallocate()
        positions.deinitialize(count: 16)
        positions.deallocate()
    }

    /// Appends a record; returns `false` (record lost) when the ring is full. Producer thread only.
    func append(_ record: TraceRecord) -> Bool {
        let write = positions[0].load(ordering: .relaxed)
        let read = positions[8].load(ordering: .acquiring)
        guard write &- read < capacity else { return false }
        records[write % capacity] = record
        positions[0].store(write &+ 1, ordering: .releasing)
        return true
    }

    /// Moves every available record into `destination`; returns how many. Consumer thread only.
    func drain(into destination: inout [TraceRecord]) -> Int {
        let read = positions[8].load(ordering: .relaxed)
        let write = positions[0].load(ordering: .acquiring)
        var position = read
        while position != write {
            destination.append(records[position % capacity])
            position &+= 1
        }
        positions[8].store(write, ordering: .releasing)
        return write &- read
    }
}
