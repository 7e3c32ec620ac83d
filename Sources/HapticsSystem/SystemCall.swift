import Glibc

/// The one funnel every system call of the typed layer goes through.
///
/// It retries `EINTR`, traps on errnos that can only mean a bug (`EBADF`, `EFAULT`), and in debug
/// builds lets ``SystemCallMocking`` record the call or force an errno. It never allocates, so it is
/// fit for the trigger path. It is plumbing of this package's modules, not API: `package`, and
/// inlinable so that the trigger's one `write()` compiles into its caller (the evdev actuator,
/// another module) as if it were written there.
package enum _SystemCall {
    /// Runs `body` (a raw call returning -1 and setting `errno` on failure) until it is not
    /// interrupted, and returns its result or its errno.
    @inlinable @inline(__always)
    package static func perform(
        _ name: StaticString, fileDescriptor: CInt, retryOnInterrupt: Bool = true, _ body: () -> Int
    ) -> Result<Int, Errno> {
        while true {
            #if DEBUG
            if let forced = SystemCallMocking.intercept(name, fileDescriptor: fileDescriptor) {
                if forced == .interrupted && retryOnInterrupt { continue }
                return .failure(checked(forced, name))
            }
            #endif
            let result = body()
            if result >= 0 { return .success(result) }
            let failure = Errno.current
            if failure == .interrupted && retryOnInterrupt { continue }
            return .failure(checked(failure, name))
        }
    }

    /// Like ``perform(_:fileDescriptor:retryOnInterrupt:_:)``, throwing a ``SystemCallError`` named after the call.
    @inlinable @inline(__always)
    package static func run(
        _ name: StaticString, fileDescriptor: CInt, retryOnInterrupt: Bool = true, _ body: () -> Int
    ) throws(SystemCallError) -> Int {
        switch perform(name, fileDescriptor: fileDescriptor, retryOnInterrupt: retryOnInterrupt, body) {
        case .success(let value): return value
        case .failure(let errno): throw SystemCallError(call: name.description, errno: errno)
        }
    }

    /// Traps on bug-class errnos: carrying on after `EBADF` could hit an unrelated, reused descriptor.
    @usableFromInline @inline(__always)
    static func checked(_ errno: Errno, _ name: StaticString) -> Errno {
        if errno.isProgrammingError {
            preconditionFailure("\(name): \(errno) — a bug in the caller, not a device error")
        }
        return errno
    }
}
