import Glibc

/// An error number from a system call: on an input device, uinput or uhid, a file, a thread, a sound
/// device.
///
/// Only the codes these interfaces actually return have names; any other value is still carried
/// as its raw number.
public struct Errno: RawRepresentable, Error, Hashable, Sendable, CustomStringConvertible {
    /// The raw C `errno` value.
    public let rawValue: CInt

    /// Wraps a raw C `errno` value.
    public init(rawValue: CInt) { self.rawValue = rawValue }

    /// `EPERM`: the operation needs a privilege the process lacks (e.g. `SCHED_FIFO` in a container).
    public static let notPermitted = Errno(rawValue: EPERM)
    /// `ENOENT`: no such file, e.g. `/dev/uinput` when the uinput module is not loaded.
    public static let noSuchFileOrDirectory = Errno(rawValue: ENOENT)
    /// `EINTR`: a signal interrupted the call. The typed layer retries it (except `close`).
    public static let interrupted = Errno(rawValue: EINTR)
    /// `EIO`: input/output error.
    public static let ioError = Errno(rawValue: EIO)
    /// `ENXIO`: no such device or address.
    public static let noSuchAddressOrDevice = Errno(rawValue: ENXIO)
    /// `EBADF`: not an open file descriptor. Always a bug in the caller; the typed layer traps.
    public static let badFileDescriptor = Errno(rawValue: EBADF)
    /// `EAGAIN`: nothing to read now on a non-blocking descriptor.
    public static let resourceTemporarilyUnavailable = Errno(rawValue: EAGAIN)
    /// `EAGAIN` by its other name: a non-blocking call that would have to wait.
    public static var wouldBlock: Errno { .resourceTemporarilyUnavailable }
    /// `ENOMEM`: the kernel could not allocate memory.
    public static let noMemory = Errno(rawValue: ENOMEM)
    /// `EACCES`: permission denied, e.g. an event node without the `uaccess` udev rule.
    public static let permissionDenied = Errno(rawValue: EACCES)
    /// `EFAULT`: a bad address passed to the kernel. Always a bug; the typed layer traps.
    public static let badAddress = Errno(rawValue: EFAULT)
    /// `EBUSY`: the device is busy (e.g. grabbed by another process).
    public static let resourceBusy = Errno(rawValue: EBUSY)
    /// `EEXIST`: already exists (e.g. a uinput device created twice on one descriptor).
    public static let fileExists = Errno(rawValue: EEXIST)
    /// `ENODEV`: the device is gone (unplugged) or does not support the operation.
    public static let operationNotSupportedByDevice = Errno(rawValue: ENODEV)
    /// `EINVAL`: an invalid argument, e.g. an effect the device does not support.
    public static let invalidArgument = Errno(rawValue: EINVAL)
    /// `ENOTTY`: the descriptor does not understand this ioctl (not an input device).
    public static let inappropriateIOCTLForDevice = Errno(rawValue: ENOTTY)
    /// `ENOSPC`: no free effect slot left on the device.
    public static let noSpace = Errno(rawValue: ENOSPC)
    /// `ETIMEDOUT`: a uinput owner did not answer an upload or erase in time.
    public static let timedOut = Errno(rawValue: ETIMEDOUT)
    /// `ELOOP`: a symbolic link where `O_NOFOLLOW` refuses one (or too many links).
    public static let tooManySymbolicLinkLevels = Errno(rawValue: ELOOP)
    /// `ENOTDIR`: a path component is not a folder.
    public static let notDirectory = Errno(rawValue: ENOTDIR)
    /// `EISDIR`: a folder where a file was expected.
    public static let isDirectory = Errno(rawValue: EISDIR)
    /// `EPIPE`: the other end is gone (a sound device that stopped).
    public static let brokenPipe = Errno(rawValue: EPIPE)
    /// `ESTRPIPE`: a sound stream suspended (the system went to sleep).
    public static let streamPipe = Errno(rawValue: ESTRPIPE)

    /// The current thread's `errno`.
    @usableFromInline package static var current: Errno { Errno(rawValue: errno) }

    /// `true` for the codes that can only mean a bug in the program (`EBADF`, `EFAULT`).
    @usableFromInline internal var isProgrammingError: Bool { self == .badFileDescriptor || self == .badAddress }

    /// The symbolic name and the C library's message, e.g. `ENODEV (No such device)`.
    public var description: String { "\(symbolicName) (\(message))" }

    /// The C library's message alone, e.g. `No such device`.
    public var message: String { String(cString: strerror(rawValue)) }

    private var symbolicName: String {
        switch rawValue {
        case EPERM: "EPERM"
        case ENOENT: "ENOENT"
        case EINTR: "EINTR"
        case EIO: "EIO"
        case ENXIO: "ENXIO"
        case EBADF: "EBADF"
        case EAGAIN: "EAGAIN"
        case ENOMEM: "ENOMEM"
        case EACCES: "EACCES"
        case EFAULT: "EFAULT"
        case EBUSY: "EBUSY"
        case EEXIST: "EEXIST"
        case ENODEV: "ENODEV"
        case EINVAL: "EINVAL"
        case ENOTTY: "ENOTTY"
        case ENOSPC: "ENOSPC"
        case ETIMEDOUT: "ETIMEDOUT"
        case ELOOP: "ELOOP"
        case ENOTDIR: "ENOTDIR"
        case EISDIR: "EISDIR"
        case EPIPE: "EPIPE"
        case ESTRPIPE: "ESTRPIPE"
        default: "errno \(rawValue)"
        }
    }
}
