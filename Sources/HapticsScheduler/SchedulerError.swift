import HapticsSystem

/// Why a control-side scheduler operation failed.
public enum SchedulerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// All `maximumPrograms` program slots are in use.
    case tooManyPrograms(maximum: Int)
    /// All `maximumPlayers` player slots are in use.
    case tooManyPlayers(maximum: Int)
    /// The program ID does not name a loaded program.
    case unknownProgram(ProgramID)
    /// The channel ID does not name a channel of this scheduler.
    case unknownChannel(ChannelID)
    /// `startRealtimeThread()` was called while the thread runs.
    case realtimeThreadAlreadyRunning
    /// `pthread_create` failed with this errno.
    case threadCreationFailed(errno: Errno)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case let .tooManyPrograms(maximum): return "scheduler: all \(maximum) program slots are in use"
        case let .tooManyPlayers(maximum): return "scheduler: all \(maximum) player slots are in use"
        case let .unknownProgram(id): return "scheduler: program \(id.rawValue) is not loaded"
        case let .unknownChannel(id): return "scheduler: channel \(id.rawValue) does not exist"
        case .realtimeThreadAlreadyRunning: return "scheduler: the realtime thread is already running"
        case let .threadCreationFailed(errno): return "scheduler: pthread_create failed: \(errno)"
        }
    }
}
