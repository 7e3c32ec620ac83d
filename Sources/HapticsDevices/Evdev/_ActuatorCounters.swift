import Synchronization

/// The atomic counters behind ``EvdevActuatorStatistics``, read on the control side.
///
/// The counters of the trigger path have one writer — the thread in `perform` (only one at a
/// time), or the control side once `close` has shut `perform` out — so they advance with a relaxed
/// load and store instead of a locked read-modify-write: a prepared trigger then costs no atomic
/// read-modify-write for its statistics. Counters bumped from both sides use `bump`.
internal final class _ActuatorCounters: Sendable {
    let commands = Atomic<Int>(0)
    let preparedTriggers = Atomic<Int>(0)
    let streamedLevels = Atomic<Int>(0)
    /// `write()`s made by `perform` (and by `close` after `perform` is shut out): single writer.
    let realtimeWrites = Atomic<Int>(0)
    /// `write()`s made by control-side calls such as `setGain`, which may run beside `perform`.
    let controlWrites = Atomic<Int>(0)
    let streamingUploads = Atomic<Int>(0)
    let preparedUploads = Atomic<Int>(0)
    let erasures = Atomic<Int>(0)
    let evictions = Atomic<Int>(0)
    let levelsLeftToStreaming = Atomic<Int>(0)
    let noSpaceErrors = Atomic<Int>(0)
    let failedCalls = Atomic<Int>(0)
    let droppedCommands = Atomic<Int>(0)

    @inline(__always) static func bump(_ counter: borrowing Atomic<Int>) {
        counter.add(1, ordering: .relaxed)
    }

    /// Advances a counter that has a single writer (see the type's comment).
    @inline(__always) static func advance(_ counter: borrowing Atomic<Int>) {
        counter.store(counter.load(ordering: .relaxed) &+ 1, ordering: .relaxed)
    }

    var snapshot: EvdevActuatorStatistics {
        EvdevActuatorStatistics(
            commands: commands.load(ordering: .relaxed),
            preparedTriggers: preparedTriggers.load(ordering: .relaxed),
            streamedLevels: streamedLevels.load(ordering: .relaxed),
            writes: realtimeWrites.load(ordering: .relaxed) + controlWrites.load(ordering: .relaxed),
            streamingUploads: streamingUploads.load(ordering: .relaxed),
            preparedUploads: preparedUploads.load(ordering: .relaxed),
            erasures: erasures.load(ordering: .relaxed),
            evictions: evictions.load(ordering: .relaxed),
            levelsLeftToStreaming: levelsLeftToStreaming.load(ordering: .relaxed),
            noSpaceErrors: noSpaceErrors.load(ordering: .relaxed),
            failedCalls: failedCalls.load(ordering: .relaxed),
            droppedCommands: droppedCommands.load(ordering: .relaxed)
        )
    }
}
