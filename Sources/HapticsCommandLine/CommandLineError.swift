/// Why a command did not complete. Usage errors exit with `EX_USAGE` (64) and a one-line hint.
public enum CommandLineError: Error, Equatable, CustomStringConvertible {
    /// The arguments were wrong; the message says what, and the hint points at `--help`.
    case usage(String)
    /// The command ran and failed (bad file, device error); exit status 1.
    case failure(String)

    /// The process exit status for this error.
    public var exitStatus: Int32 {
        switch self {
        case .usage: return ExitStatus.usage
        case .failure: return ExitStatus.failure
        }
    }

    /// The message without the program name.
    public var description: String {
        switch self {
        case let .usage(message), let .failure(message): return message
        }
    }
}

/// Exit statuses of the `haptics` tool (sysexits.h where one fits).
public enum ExitStatus {
    /// Everything worked.
    public static let success: Int32 = 0
    /// The command ran and something failed (e.g. a file did not validate).
    public static let failure: Int32 = 1
    /// `EX_USAGE`: the command line was wrong.
    public static let usage: Int32 = 64
}
