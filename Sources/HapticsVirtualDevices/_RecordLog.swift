import Foundation

/// An append-only log shared between a device's reader thread and the control side, with a
/// bounded wait for records that arrive asynchronously from the kernel.
internal final class _RecordLog<Record: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var records: [Record] = []

    func append(_ record: Record) {
        condition.lock()
        records.append(record)
        condition.broadcast()
        condition.unlock()
    }

    var all: [Record] {
        condition.lock()
        defer { condition.unlock() }
        return records
    }

    /// Waits until `isComplete` holds for the records (or `timeout` passes) and returns the records.
    func wait(timeout: Duration, until isComplete: ([Record]) -> Bool) -> (records: [Record], complete: Bool) {
        let deadline = Date(timeIntervalSinceNow: Double(timeout.nanoseconds) / 1e9)
        condition.lock()
        defer { condition.unlock() }
        while !isComplete(records) {
            if !condition.wait(until: deadline) { return (records, isComplete(records)) }
        }
        return (records, true)
    }
}
