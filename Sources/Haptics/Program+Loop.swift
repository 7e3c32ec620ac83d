import HapticsRendering

extension Program {
    /// The length a looping player of this program wraps at, by the scheduler's rule: the program's
    /// duration (its final `.stop` is where a looping player goes back to offset 0 instead), or
    /// `nil` when the scheduler does not loop it (no duration, or nothing before the final stop).
    /// Lead time does not enter it: every pass starts `leadTime` before its felt onset, as the first.
    var loopLength: Duration? {
        let endsWithStop = commands.last?.command == .stop
        let loopEnd = endsWithStop ? commands.count - 1 : commands.count
        return loopEnd > 0 && durationNanoseconds > 0 ? .nanoseconds(durationNanoseconds) : nil
    }
}
