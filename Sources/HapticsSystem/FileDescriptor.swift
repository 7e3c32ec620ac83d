import CHapticsSystem
import Glibc

/// An open file descriptor: a device node (`/dev/input/event*`, `/dev/uinput`, `/dev/uhid`), a pattern
/// file or a sound file.
///
/// A thin typed layer in the style of swift-system: calls throw a ``SystemCallError`` naming the
/// call and its ``Errno``, `EINTR` is retried, and `EBADF`/`EFAULT` trap because they mean a bug.
/// The value does not own the descriptor: call ``close()`` exactly once.
package struct FileDescriptor: RawRepresentable, Hashable, Sendable {
    /// The raw descriptor.
    package let rawValue: CInt

    /// Wraps a raw descriptor.
    package init(rawValue: CInt) { self.rawValue = rawValue }

    /// How the file is opened.
    package struct AccessMode: RawRepresentable, Hashable, Sendable {
        /// The raw `O_RDONLY`/`O_WRONLY`/`O_RDWR` flag.
        package let rawValue: CInt
        /// Wraps a raw access-mode flag.
        package init(rawValue: CInt) { self.rawValue = rawValue }
        /// `O_RDONLY`.
        package static let readOnly = AccessMode(rawValue: O_RDONLY)
        /// `O_WRONLY`.
        package static let writeOnly = AccessMode(rawValue: O_WRONLY)
        /// `O_RDWR`: force feedback needs it (uploads and triggers are writes to the device).
        package static let readWrite = AccessMode(rawValue: O_RDWR)
    }

    /// Extra `open` flags.
    package struct OpenOptions: OptionSet, Hashable, Sendable {
        /// The raw flags.
        package let rawValue: CInt
        /// Wraps raw `O_*` flags.
        package init(rawValue: CInt) { self.rawValue = rawValue }
        /// `O_NONBLOCK`: reads return `EAGAIN` instead of waiting.
        package static let nonBlocking = OpenOptions(rawValue: O_NONBLOCK)
        /// `O_CLOEXEC`: not inherited by child processes.
        package static let closeOnExec = OpenOptions(rawValue: O_CLOEXEC)
        /// `O_NOFOLLOW`: refuse (`ELOOP`) when the last path component is a symbolic link.
        package static let noFollow = OpenOptions(rawValue: O_NOFOLLOW)
        /// `O_CREAT`: create the file when it does not exist.
        package static let create = OpenOptions(rawValue: O_CREAT)
        /// `O_EXCL` (with `create`): fail with `EEXIST` when the file exists.
        package static let exclusive = OpenOptions(rawValue: O_EXCL)
        /// `O_TRUNC`: empty an existing file.
        package static let truncate = OpenOptions(rawValue: O_TRUNC)
        /// `O_DIRECTORY`: refuse (`ENOTDIR`) anything but a folder.
        package static let directory = OpenOptions(rawValue: O_DIRECTORY)
        /// `O_NOCTTY`: a terminal opened this way never becomes the process's controlling terminal.
        package static let noControllingTerminal = OpenOptions(rawValue: O_NOCTTY)
        /// `O_PATH`: a descriptor that only names the file — nothing is opened for reading, no
        /// device driver's open runs, a FIFO waits for nobody. `fstat`, ``path()`` and
        /// ``open(_:relativeTo:_:options:)`` work on it; reading does not. The access mode is ignored.
        package static let pathOnly = OpenOptions(rawValue: CHapticsSystem_openPathFlag())
    }

    /// Opens `path`.
    ///
    /// The corresponding C function is `open`.
    /// `permissions` apply to a file that `options` create (`0o644` by default, less the umask).
    package static func open(
        _ path: String, _ mode: AccessMode, options: OpenOptions = [.closeOnExec], permissions: mode_t = 0o644
    ) throws(SystemCallError) -> FileDescriptor {
        let descriptor = try _SystemCall.run("open", fileDescriptor: -1) {
            Int(Glibc.open(path, mode.rawValue | options.rawValue, permissions))
        }
        return FileDescriptor(rawValue: CInt(descriptor))
    }

    /// Opens `path` relative to the folder open on `folder` (an absolute `path` ignores it).
    ///
    /// The corresponding C function is `openat`.
    package static func open(
        _ path: String, relativeTo folder: FileDescriptor, _ mode: AccessMode, options: OpenOptions = [.closeOnExec]
    ) throws(SystemCallError) -> FileDescriptor {
        let descriptor = try _SystemCall.run("openat", fileDescriptor: folder.rawValue) {
            Int(openat(folder.rawValue, path, mode.rawValue | options.rawValue))
        }
        return FileDescriptor(rawValue: CInt(descriptor))
    }

    /// Closes the descriptor. Not retried on `EINTR`: Linux has released it already.
    ///
    /// The corresponding C function is `close`.
    package func close() throws(SystemCallError) {
        _ = try _SystemCall.run("close", fileDescriptor: rawValue, retryOnInterrupt: false) {
            Int(Glibc.close(rawValue))
        }
    }

    /// Reads up to `buffer.count` bytes and returns how many were read (0 at end of file).
    ///
    /// The corresponding C function is `read`.
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError) -> Int {
        try _SystemCall.run("read", fileDescriptor: rawValue) {
            Glibc.read(rawValue, buffer.baseAddress, buffer.count)
        }
    }

    /// Writes `buffer` and returns how many bytes were written. Does not allocate.
    ///
    /// The corresponding C function is `write`.
    package func write(_ buffer: UnsafeRawBufferPointer) throws(SystemCallError) -> Int {
        try _SystemCall.run("write", fileDescriptor: rawValue) {
            Glibc.write(rawValue, buffer.baseAddress, buffer.count)
        }
    }

    /// Waits until the descriptor is readable or `timeoutMilliseconds` pass (-1: forever).
    /// Returns `true` when readable (or hung up: the next read says why).
    ///
    /// The corresponding C function is `poll`.
    package func waitUntilReadable(timeoutMilliseconds: CInt) throws(SystemCallError) -> Bool {
        var entry = pollfd(fd: rawValue, events: Int16(POLLIN), revents: 0)
        let ready = try _SystemCall.run("poll", fileDescriptor: rawValue) { Int(poll(&entry, 1, timeoutMilliseconds)) }
        return ready > 0
    }

    /// An ioctl whose argument is a pointer. `name` is the request's C name, used in errors.
    package func ioctl(
        _ name: StaticString, _ request: UInt, _ argument: UnsafeMutableRawPointer?
    ) throws(SystemCallError) -> CInt {
        CInt(try _SystemCall.run(name, fileDescriptor: rawValue) {
            Int(CHapticsSystem_ioctlPointer(rawValue, request, argument))
        })
    }

    /// An ioctl whose argument is passed by value.
    package func ioctl(_ name: StaticString, _ request: UInt, value: Int) throws(SystemCallError) -> CInt {
        CInt(try _SystemCall.run(name, fileDescriptor: rawValue) {
            Int(CHapticsSystem_ioctlInteger(rawValue, request, value))
        })
    }
}
