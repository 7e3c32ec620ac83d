import HapticsMeasurement

/// What a benchmark reads from the kernel's function tracer: where each call reached a traced
/// function.
extension KernelFunctionTrace {
    /// For each call (`thread`, the instant it began), the nanoseconds until that thread's first
    /// entry of `function` at or after it, or `nil` when none came before the next call began.
    static func delays(after calls: [(thread: Int32, start: Int64)], until function: String, in entries: [Entry]) -> [Int64?] {
        var byThread: [Int32: [Int64]] = [:]
        for entry in entries where entry.function == function { byThread[entry.thread, default: []].append(entry.instant) }
        let starts = calls.map(\.start).sorted()
        return calls.map { call in
            guard let first = byThread[call.thread]?.first(where: { $0 >= call.start }) else { return nil }
            // Matched only when it came before the next call (of any peer) began.
            if let next = starts.first(where: { $0 > call.start }), first >= next { return nil }
            return first - call.start
        }
    }

    /// For each instant, the nanoseconds until the first entry of `function` (any thread) at or
    /// after it, or `nil` when there is none.
    static func delays(after instants: [Int64], until function: String, in entries: [Entry]) -> [Int64?] {
        let times = entries.filter { $0.function == function }.map(\.instant)
        return instants.map { instant in times.first { $0 >= instant }.map { $0 - instant } }
    }
}
