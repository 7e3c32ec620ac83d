/// A failed system call: which call (`write`, `EVIOCSFF`, `UI_DEV_CREATE`…) and the errno it returned.
///
/// Every device error the engine reports carries one, so a user sees both what was attempted and
/// what the kernel said.
public struct SystemCallError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The system call or ioctl that failed, e.g. `"EVIOCSFF"`.
    public var call: String
    /// The error number the kernel returned.
    public var errno: Errno

    /// Creates an error for `call` failing with `errno`.
    public init(call: String, errno: Errno) {
        self.call = call
        self.errno = errno
    }

    /// For example `EVIOCSFF: ENOSPC (No space left on device)`.
    public var description: String { "\(call): \(errno)" }
}
