import HapticsSystem

/// The control side's bookkeeping, guarded by the scheduler's mutex (never touched by processing).
struct ControlBook {
    var programGenerations: [UInt32]
    var programLoaded: [Bool]
    /// Unloaded while the processing side may still read it: freed by a later control call.
    var programRetiring: [Bool]
    var playerGenerations: [UInt32]
    var playerProgram: [Int]
    var realtimeThread: RealtimeThread?
    /// What the system granted the realtime thread last started (kept after it stops, for statistics).
    var realtimeGrant: RealtimeThread.Grant?

    init(configuration: SchedulerConfiguration) {
        programGenerations = Array(repeating: 0, count: configuration.maximumPrograms)
        programLoaded = Array(repeating: false, count: configuration.maximumPrograms)
        programRetiring = Array(repeating: false, count: configuration.maximumPrograms)
        playerGenerations = Array(repeating: 0, count: configuration.maximumPlayers)
        playerProgram = Array(repeating: -1, count: configuration.maximumPlayers)
    }

    func isLive(player index: Int) -> Bool { playerGenerations[index] & 1 == 1 }
}
