import Synchronization

/// The atomic counters behind ``EvdevActuatorStatistics``: bumped on the realtime thread with
/// relaxed increments, read on the control side.
internal final class _ActuatorCounters: Sendable {
    let commands = Atomic<Int>(0)
    let preparedTriggers = Atomic<Int>(0)
    let streamedLevels = Atomic<Int>(0)
    let writes = Atomic<Int>(0)
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

    var snapshot: EvdevActuatorStatistics {
        EvdevActuatorStatistics(
            commands: commands.load(ordering: .relaxed),
            preparedTriggers: preparedTriggers.load(ordering: .relaxed),
            streamedLevels: streamedLevels.load(ordering: .relaxed),
            writes: writes.load(ordering: .relaxed),
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
