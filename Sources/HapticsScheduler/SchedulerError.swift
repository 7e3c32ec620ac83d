import HapticsPatterns
import HapticsSystem

/// Why a scheduler operation failed: a control-side call, or a submission whose value is outside
/// what the scheduler accepts (``SchedulerLimits``). A submission that throws submits nothing.
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
    /// All `maximumChannels` channels have been added.
    case tooManyChannels(maximum: Int)
    /// `setRate` was given a rate outside ``SchedulerLimits/playbackRates`` (or NaN, ±infinity).
    case invalidRate(Double)
    /// `setParameter` was given a value that is not a finite number.
    case invalidParameterValue(DynamicParameterID, Double)
    /// `load` was given a program whose command at `index` has an offset that is negative, beyond
    /// ``SchedulerLimits/maximumProgramLength``, or earlier than the offset of the command before it.
    case commandOffsetOutOfRange(index: Int, offsetNanoseconds: Int64)
    /// `load` was given a program whose duration is negative or beyond
    /// ``SchedulerLimits/maximumProgramLength``.
    case programDurationOutOfRange(Duration)
    /// `setCurve` was given a curve with more control points than `maximumCurvePoints`.
    case curveTooLong(points: Int, maximum: Int)
    /// `setCurve` was given a curve whose control point `index` comes before the point ahead of it.
    case curveOutOfOrder(index: Int)
    /// `setCurve` was given a curve whose start or control point time (seconds) is negative, not
    /// finite, or beyond ``SchedulerLimits/maximumProgramLength``.
    case curveTimeOutOfRange(seconds: Double)
    /// `setMotorLevels` was given a motor level that is not a finite number (`motor` is `"low"`
    /// or `"high"`).
    case invalidMotorLevel(motor: String, Double)
    /// `setChannelProfile` was called on a channel a live player is bound to, or before processing
    /// has passed the mark it was given.
    case channelInUse(ChannelID)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case let .tooManyPrograms(maximum): return "scheduler: all \(maximum) program slots are in use"
        case let .tooManyPlayers(maximum): return "scheduler: all \(maximum) player slots are in use"
        case let .unknownProgram(id): return "scheduler: program \(id.rawValue) is not loaded"
        case let .unknownChannel(id): return "scheduler: channel \(id.rawValue) does not exist"
        case let .channelInUse(id): return "scheduler: channel \(id.rawValue) is still in use"
        case .realtimeThreadAlreadyRunning: return "scheduler: the realtime thread is already running"
        case let .threadCreationFailed(errno): return "scheduler: pthread_create failed: \(errno)"
        case let .tooManyChannels(maximum): return "scheduler: all \(maximum) channels are in use"
        case let .invalidRate(rate):
            return "scheduler: playback rate \(rate) is outside 1/64…64"
        case let .invalidParameterValue(id, value):
            return "scheduler: \(id.rawValue) value \(value) is not a finite number"
        case let .commandOffsetOutOfRange(index, offset):
            return "scheduler: program command \(index) at \(offset) ns is negative, out of order or after 2 h"
        case let .programDurationOutOfRange(duration):
            return "scheduler: program duration \(duration) is negative or longer than 2 h"
        case let .curveTooLong(points, maximum):
            return "scheduler: a curve of \(points) control points is longer than the \(maximum) a curve may have"
        case let .curveOutOfOrder(index):
            return "scheduler: curve control point \(index) comes before the point ahead of it"
        case let .curveTimeOutOfRange(seconds):
            return "scheduler: curve time \(seconds) s is negative, not finite or after 2 h"
        case let .invalidMotorLevel(motor, value):
            return "scheduler: \(motor) motor level \(value) is not a finite number"
        }
    }
}
