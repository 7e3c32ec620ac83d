import CHapticsABI
import Glibc
import Haptics

/// Result codes of the C interface: 0 or a count on success, a negative errno value on failure.
enum CResult {
    static let ok: Int32 = 0

    static func code(_ errno: Int32) -> Int32 { -errno }

    static let invalidArgument = code(EINVAL)
    static let badHandle = code(EBADF)

    /// The code of a play that did not play, by its reason.
    static func code(_ reason: SilenceReason) -> Int32 {
        switch reason {
        case .disabled, .muted, .applicationInactive: return code(ECANCELED)
        case .noDevice, .noRealDevice: return code(ENODEV)
        case .engineStopped: return code(ESHUTDOWN)
        case .unsupported: return code(ENOTSUP)
        case .queueFull: return code(EAGAIN)
        case .invalidIntensity: return invalidArgument
        case .onsetOutOfRange: return code(ERANGE)
        }
    }

    /// The code of a file that could not be read.
    static func code(_ error: FileReadError) -> Int32 {
        switch error {
        case let .systemCall(failure): return code(failure.errno.rawValue)
        case .notRegularFile: return code(EINVAL)
        case .tooLarge: return code(EFBIG)
        case .changedWhileReading: return code(EAGAIN)
        case .outsideFolder: return code(EACCES)
        }
    }

    /// The code of an error thrown by the engine, with its message kept for `haptics_last_error`.
    static func failure(_ error: any Error) -> Int32 {
        LastError.set(String(describing: error))
        return code(of: error)
    }

    /// The code of an error thrown by the engine.
    static func code(of error: any Error) -> Int32 {
        switch error {
        case let error as PatternError:
            return error.readError.map(code) ?? code(EILSEQ)
        case let error as AudioLoadError:
            switch error {
            case let .pattern(pattern): return pattern.readError.map(code) ?? code(EILSEQ)
            case let .sound(sound): return code(sound)
            }
        case let error as DeviceError:
            switch error {
            case .permissionDenied: return code(EACCES)
            case .noForceFeedback: return code(ENOTSUP)
            case let .deviceLost(_, failure), let .systemCall(_, failure): return code(failure.errno.rawValue)
            }
        case let error as EngineError:
            switch error {
            case .tooManyOutputs, .schedulerFull: return code(ENOSPC)
            case .audioAlreadyAttached: return code(EBUSY)
            case .audioUnavailable: return code(ENODEV)
            case let .profileFile(file): return file.readError.map(code) ?? code(EILSEQ)
            case .soundCue, .soundCuesMissing, .invalidProfile, .patternTimeOutOfRange, .hapticTimeOverLimit, .clockNotRealtime,
                 .gainOutOfRange, .unknownProfile:
                return invalidArgument
            }
        case is PlayerError, is WAVError, is SoundAnalysisError:
            return invalidArgument
        case is SchedulerError:
            return code(ENOSPC)
        case is TriggerEffectError, is TriggerEffectParseError:
            return invalidArgument
        case let error as TriggerDeviceError:
            switch error {
            case .noAdaptiveTriggers, .unsupportedBus, .noHidrawNode: return code(ENOTSUP)
            case .unknownInputDevice, .nodeMissing, .closed: return code(ENODEV)
            case .permissionDenied: return code(EACCES)
            case .tooManyTimedEffects: return code(ENOSPC)
            case let .padLost(_, failure), let .system(_, failure): return code(failure.errno.rawValue)
            }
        case let error as HDHapticsError:
            switch error {
            case let .node(node): return code(of: node)
            case .soundCard(.unknownInputDevice): return code(ENODEV)
            case .soundCard: return code(ENOENT)
            case let .stream(stream): return code(stream.errno.rawValue)
            }
        default:
            return code(EIO)
        }
    }

    private static func code(_ error: AudioPatternError) -> Int32 {
        switch error.problem {
        case .missing: return code(ENOENT)
        case .tooLarge, .overBudget: return code(EFBIG)
        case .absolutePath, .escapesFolder, .symbolicLinkEscapes: return code(EACCES)
        case .notRegularFile, .noWaveformPath: return invalidArgument
        case .unreadable: return code(EIO)
        case .invalidWAV: return code(EILSEQ)
        }
    }
}

/// The message of the last failure on each thread (`haptics_last_error`), kept in a thread-specific
/// C string that the next failure on that thread replaces.
enum LastError {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let made = pthread_key_create(&key) { free($0) }
        precondition(made == 0, "haptics: no thread-specific key for haptics_last_error")
        return key
    }()

    static func set(_ message: String) {
        let text = strdup(PrintableText.escaped(message))
        free(pthread_getspecific(key))
        pthread_setspecific(key, text)
    }

    static var current: UnsafePointer<CChar>? {
        pthread_getspecific(key).map { UnsafePointer($0.assumingMemoryBound(to: CChar.self)) }
    }
}

@_cdecl("haptics_strerror")
public func haptics_strerror(_ code: Int32) -> UnsafePointer<CChar> {
    let text: StaticString
    switch code == Int32.min ? -1 : abs(code) {
    case 0: text = "success"
    case EINVAL: text = "invalid argument"
    case EBADF: text = "not a live handle of this kind"
    case ENODEV: text = "no haptic device"
    case ECANCELED: text = "haptics are switched off, muted, or the application is inactive"
    case ESHUTDOWN: text = "the engine is stopped"
    case ENOTSUP: text = "not supported by the device"
    case EAGAIN: text = "the queue is full; try again"
    case ERANGE: text = "out of range"
    case ENOENT: text = "no such file or device node"
    case EACCES: text = "permission denied (install the udev rule, or the path leaves its folder)"
    case EILSEQ: text = "the file is not a valid pattern or sound"
    case EFBIG: text = "over a size limit or the sound budget"
    case ENOSPC: text = "the engine has no room for more devices or players"
    case EBUSY: text = "already attached"
    case EIO: text = "input/output error"
    case ETIMEDOUT: text = "not done within the timeout"
    default: text = "unknown error"
    }
    return UnsafeRawPointer(text.utf8Start).assumingMemoryBound(to: CChar.self)
}
