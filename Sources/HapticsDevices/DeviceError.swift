import HapticsSystem

/// Why a device could not be opened, prepared or driven. Every case says which device.
public enum DeviceError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The event node exists but may not be opened for writing.
    case permissionDenied(path: String)
    /// The device has no force feedback (no `EV_FF` or no effect slots).
    case noForceFeedback(path: String)
    /// The device is gone (`ENODEV`): unplugged.
    case deviceLost(path: String, SystemCallError)
    /// A system call failed with the given errno.
    case systemCall(path: String, SystemCallError)

    /// A readable explanation, with the fix where there is one; the path (a folder's entry, or
    /// what the user typed) escaped for the terminal.
    public var description: String {
        switch self {
        case let .permissionDenied(path):
            return "\(PrintableText.escaped(path)): permission denied; install Tools/udev/70-haptics.rules (TAG+=\"uaccess\" for force-feedback event nodes) and re-plug the device, or add yourself to the 'input' group"
        case let .noForceFeedback(path):
            return "\(PrintableText.escaped(path)): the device has no force feedback"
        case let .deviceLost(path, error):
            return "\(PrintableText.escaped(path)): device lost (\(error))"
        case let .systemCall(path, error):
            return "\(PrintableText.escaped(path)): \(error)"
        }
    }
}
