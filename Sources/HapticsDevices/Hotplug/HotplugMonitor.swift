import Dispatch
import Glibc
import Synchronization
import HapticsSystem

/// Watches a directory of event nodes (`/dev/input`) and reports nodes that appear and disappear,
/// so an engine can pick up a controller plugged in while it runs and drop one that is unplugged.
///
/// Only `event*` nodes are reported. A node that appears is reported again when its attributes
/// change, because udev sets the permissions (the `uaccess` ACL) just after the kernel creates it:
/// an open that failed with `EACCES` may work then. Consumers ignore paths they already have.
/// The handler runs on the monitor's own thread; ``stop()`` waits for it to return.
public final class HotplugMonitor: @unchecked Sendable {
    /// What happened to an event node.
    public enum Change: Hashable, Sendable {
        /// The node was created, or its permissions changed (it may be openable now).
        case appeared(path: String)
        /// The node was removed: the device was unplugged.
        case disappeared(path: String)
    }

    /// The watched directory.
    public let directory: String
    private let notifications: FileDescriptor
    private let handler: @Sendable (Change) -> Void
    private var reader: _DeviceReaderThread?
    /// The pthread of the monitor's thread while it runs the handler, else 0: a `stop()`
    /// from inside the handler must not wait for the handler to return.
    private let handlerThread = Atomic<UInt>(0)
    private let stopped = Atomic<Bool>(false)

    /// Starts watching `directory` and calls `handler` with every change to an `event*` node.
    ///
    /// The corresponding C functions are `inotify_init1` and `inotify_add_watch`.
    public init(directory: String = "/dev/input", handler: @escaping @Sendable (Change) -> Void) throws(SystemCallError) {
        self.directory = directory
        self.handler = handler
        let descriptor = try _SystemCall.run("inotify_init1", fileDescriptor: -1) {
            Int(inotify_init1(CInt(IN_NONBLOCK | IN_CLOEXEC)))
        }
        notifications = FileDescriptor(rawValue: CInt(descriptor))
        let mask = UInt32(IN_CREATE | IN_DELETE | IN_ATTRIB | IN_MOVED_TO | IN_MOVED_FROM)
        do {
            _ = try _SystemCall.run("inotify_add_watch", fileDescriptor: notifications.rawValue) {
                Int(inotify_add_watch(notifications.rawValue, directory, mask))
            }
            reader = try _DeviceReaderThread(name: "haptics-hotplug", device: notifications) { [unowned(unsafe) self] in
                self.drain()
            }
        } catch {
            try? notifications.close()
            throw error
        }
    }

    deinit { stop() }

    /// Stops watching; no handler call runs after this returns (called from inside the handler,
    /// no further call starts). Idempotent.
    public func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing), let reader else { return }
        self.reader = nil
        let notifications = notifications
        if handlerThread.load(ordering: .acquiring) == pthread_self() {
            // Joining the thread we run on would never return: let another thread finish it.
            DispatchQueue.global().async {
                reader.stop()
                try? notifications.close()
            }
            return
        }
        reader.stop()
        try? notifications.close()
    }

    /// The `event*` node changes in one `read` of inotify records.
    static func changes(in buffer: UnsafeRawBufferPointer, directory: String) -> [Change] {
        var changes: [Change] = []
        var offset = 0
        let headerSize = MemoryLayout<inotify_event>.size
        while offset + headerSize <= buffer.count {
            let mask = buffer.loadUnaligned(fromByteOffset: offset + MemoryLayout.offset(of: \inotify_event.mask)!, as: UInt32.self)
            let length = Int(buffer.loadUnaligned(fromByteOffset: offset + MemoryLayout.offset(of: \inotify_event.len)!, as: UInt32.self))
            let nameBytes = buffer[(offset + headerSize)..<min(buffer.count, offset + headerSize + length)]
            let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
            offset += headerSize + length
            guard name.hasPrefix("event") else { continue }
            let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            if mask & UInt32(IN_DELETE | IN_MOVED_FROM) != 0 {
                changes.append(.disappeared(path: path))
            } else if mask & UInt32(IN_CREATE | IN_MOVED_TO | IN_ATTRIB) != 0 {
                changes.append(.appeared(path: path))
            }
        }
        return changes
    }

    private func drain() {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            let count: Int
            do {
                count = try notifications.read(into: buffer)
            } catch {
                return  // EAGAIN: everything queued has been read.
            }
            guard count > 0 else { return }
            handlerThread.store(pthread_self(), ordering: .releasing)
            defer { handlerThread.store(0, ordering: .releasing) }
            for change in Self.changes(in: UnsafeRawBufferPointer(rebasing: buffer[..<count]), directory: directory) {
                guard !stopped.load(ordering: .acquiring) else { return }
                handler(change)
            }
        }
    }
}
