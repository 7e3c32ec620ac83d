import Foundation

/// The process's environment variables.
public enum ProcessEnvironment {
    /// The current environment.
    public static func current() -> [String: String] { ProcessInfo.processInfo.environment }
}
