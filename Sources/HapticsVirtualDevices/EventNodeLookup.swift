import CEvdev
import Glibc
import HapticsSystem

/// Finds `/dev/input/event*` nodes by what they say they are (their name and unique identifier, as
/// libevdev reads them).
///
/// Node numbers depend on the order devices appeared, so they change between boots and between
/// test runs; names and unique identifiers do not.
public enum EventNodeLookup {
    /// The directory devtmpfs and udev put event nodes in.
    public static let inputDirectory = "/dev/input"

    /// The first event node whose name is `name` (and whose unique identifier is `uniqueIdentifier`,
    /// when given), or `nil`. Nodes that cannot be opened are skipped.
    public static func find(name: String, uniqueIdentifier: String? = nil) -> String? {
        for path in eventNodePaths() {
            guard let descriptor = try? FileDescriptor.open(path, .readOnly, options: [.nonBlocking, .closeOnExec])
            else { continue }
            defer { try? descriptor.close() }
            var device: OpaquePointer?
            guard libevdev_new_from_fd(descriptor.rawValue, &device) == 0, let device else { continue }
            defer { libevdev_free(device) }
            guard String(cString: libevdev_get_name(device)) == name else { continue }
            if let uniqueIdentifier, libevdev_get_uniq(device).map({ String(cString: $0) }) ?? "" != uniqueIdentifier {
                continue
            }
            return path
        }
        return nil
    }

    /// Waits until a node matching `name` (and `uniqueIdentifier`) exists and returns its path, or
    /// `nil` after `timeout`. Drivers create nodes asynchronously (a uhid device is probed in a
    /// kernel worker); inotify wakes the wait as soon as devtmpfs adds a node.
    ///
    /// Each look opens every event node (``find(name:uniqueIdentifier:)``); a device that knows its
    /// input device's sysfs name waits with ``waitForNode(inputDevice:timeout:)`` instead.
    public static func waitForNode(
        name: String, uniqueIdentifier: String? = nil, timeout: Duration
    ) throws(SystemCallError) -> String? {
        try waitUntilFound(timeout: timeout) { find(name: name, uniqueIdentifier: uniqueIdentifier) }
    }

    /// The event node of the input device whose sysfs name is `inputDevice` (`input7`, as uinput's
    /// `UI_GET_SYSNAME` says), once it exists, or `nil` after `timeout`. Reads the device's sysfs
    /// directory instead of opening every node, so finding the node of the 32nd device costs what
    /// finding the first does.
    public static func waitForNode(inputDevice: String, timeout: Duration) throws(SystemCallError) -> String? {
        try waitUntilFound(timeout: timeout) { existingNode(ofInputDevice: inputDevice) }
    }

    /// The event node of input device `inputDevice` when both its sysfs entry (evdev has bound) and
    /// the node in `/dev/input` (devtmpfs or udev has made it) exist, or `nil`.
    public static func existingNode(ofInputDevice inputDevice: String) -> String? {
        let handlers = FileDescriptor.numberedEntries(in: "/sys/class/input/\(inputDevice)", prefix: "event")
        guard let handler = handlers.first else { return nil }
        let path = "\(inputDirectory)/\(handler.split(separator: "/").last!)"
        return access(path, F_OK) == 0 ? path : nil
    }

    /// Calls `lookup` until it finds a path (returned) or `timeout` passes (`nil`), waking on every
    /// change inotify reports in `/dev/input`.
    private static func waitUntilFound(
        timeout: Duration, _ lookup: () -> String?
    ) throws(SystemCallError) -> String? {
        let deadline = MonotonicInstant.now.nanoseconds + timeout.nanoseconds
        let watch = try _DirectoryWatch()
        defer { watch.close() }
        while true {
            try watch.watchInputDirectory()
            if let path = lookup() { return path }
            let remaining = deadline - MonotonicInstant.now.nanoseconds
            if remaining <= 0 { return nil }
            try watch.waitForChange(timeoutMilliseconds: CInt(min(remaining / 1_000_000 + 1, 1_000)))
        }
    }

    /// Paths of the `event*` nodes present now, in numeric order.
    public static func eventNodePaths() -> [String] {
        FileDescriptor.numberedEntries(in: inputDirectory, prefix: "event")
    }
}

/// inotify on `/dev/input` — or on `/dev` until the first input device creates `/dev/input`.
private final class _DirectoryWatch {
    private let descriptor: FileDescriptor
    private var watchesInputDirectory = false

    init() throws(SystemCallError) {
        let raw = try _SystemCall.run("inotify_init1", fileDescriptor: -1) {
            Int(inotify_init1(CInt(IN_CLOEXEC | IN_NONBLOCK)))
        }
        descriptor = FileDescriptor(rawValue: CInt(raw))
        if inotify_add_watch(descriptor.rawValue, "/dev", UInt32(IN_CREATE)) < 0 {
            throw SystemCallError(call: "inotify_add_watch", errno: .current)
        }
    }

    /// Adds the watch on `/dev/input` once it exists (before scanning, so no node is missed).
    func watchInputDirectory() throws(SystemCallError) {
        guard !watchesInputDirectory else { return }
        if inotify_add_watch(descriptor.rawValue, EventNodeLookup.inputDirectory, UInt32(IN_CREATE | IN_ATTRIB)) >= 0 {
            watchesInputDirectory = true
        } else if Errno.current != .noSuchFileOrDirectory {
            throw SystemCallError(call: "inotify_add_watch", errno: .current)
        }
    }

    /// Waits for any change (or the timeout) and drains the queued notifications.
    func waitForChange(timeoutMilliseconds: CInt) throws(SystemCallError) {
        guard try descriptor.waitUntilReadable(timeoutMilliseconds: timeoutMilliseconds) else { return }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            do {
                if try descriptor.read(into: buffer) <= 0 { return }
            } catch where error.errno == .wouldBlock {
                return
            }
        }
    }

    func close() { try? descriptor.close() }
}
