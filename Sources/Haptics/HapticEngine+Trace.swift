import HapticsScheduler

extension HapticEngine {
    /// Moves the scheduler's trace records written since the last call into `records` (oldest
    /// first) and returns how many: every command handed to a device, when it was due and when it
    /// went out. Control side; the realtime thread only fills a fixed-size ring.
    @discardableResult
    public func drainTrace(into records: inout [TraceRecord]) -> Int {
        scheduler.drainTrace(into: &records)
    }

    /// The scheduler channel of the live output on event node `path`, to match trace records.
    public func traceChannel(path: String) -> Int32? {
        channel(path: path).map { Int32($0.rawValue) }
    }
}
