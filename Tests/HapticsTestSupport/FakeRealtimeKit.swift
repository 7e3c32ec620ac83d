import CHapticsDBus
import Glibc
import HapticsSystem
import Synchronization

/// A stand-in for rtkit on a ``PrivateBus``: it owns `org.freedesktop.RealtimeKit1`, answers its
/// properties, and for `MakeThreadRealtime` does what rtkit does — checks the caller's
/// `RLIMIT_RTTIME` and that the thread is one of the caller's, then sets `SCHED_FIFO` on it (which
/// takes root: CAP_SYS_NICE) — and records every call it gets.
public final class FakeRealtimeKit: Sendable {
    /// One `MakeThreadRealtime` call as the service received it.
    public struct Call: Hashable, Sendable, CustomStringConvertible {
        public var thread: UInt64
        public var priority: UInt32
        /// The hard `RLIMIT_RTTIME` of the thread's process when the call arrived, in µs.
        public var runTimeLimit: UInt64
        /// The thread's name when the call arrived (`/proc/<thread>/comm`).
        public var threadName: String

        public init(thread: UInt64, priority: UInt32, runTimeLimit: UInt64, threadName: String) {
            self.thread = thread
            self.priority = priority
            self.runTimeLimit = runTimeLimit
            self.threadName = threadName
        }

        public var description: String { "MakeThreadRealtime(\(thread) \(threadName), \(priority)) with RLIMIT_RTTIME \(runTimeLimit)" }
    }

    /// What it answers: its limits, and an error to refuse every call with (`nil`: grant).
    ///
    /// Its run-time limit is 60 s by default, not rtkit's 200 ms: the client lowers its process's
    /// RLIMIT_RTTIME to it, and in a test process that is every test's realtime threads (slowed
    /// down by sanitizers, the kernel would stop them).
    public struct Behaviour: Sendable {
        public var maximumPriority: Int32
        public var runTimeLimit: Int64
        public var refusal: (name: String, message: String)?

        public init(maximumPriority: Int32 = 20, runTimeLimit: Int64 = 60_000_000, refusal: (name: String, message: String)? = nil) {
            self.maximumPriority = maximumPriority
            self.runTimeLimit = runTimeLimit
            self.refusal = refusal
        }
    }

    private final class State: Sendable {
        let calls = OrderedMutex<[Call]>([])
        let stopping = Atomic<Bool>(false)
    }
    private let state = State()
    private let thread: RealtimeThread

    /// Every `MakeThreadRealtime` call so far.
    public var receivedCalls: [Call] { state.calls.withLock { $0 } }

    /// Connects to `bus`, takes rtkit's name and serves on a thread of its own until ``stop()``.
    public init(on bus: PrivateBus, behaviour: Behaviour = Behaviour()) throws {
        guard let library = CHapticsDBus_library() else {
            throw PrivateBus.StartError(description: "libdbus-1 cannot be loaded")
        }
        var error = DBusError()
        library.pointee.error_init(&error)
        defer { library.pointee.error_free(&error) }
        guard let connection = library.pointee.connection_open_private(bus.address, &error),
              library.pointee.bus_register(connection, &error) != 0,
              library.pointee.bus_request_name(connection, "org.freedesktop.RealtimeKit1", 0, &error) == 1 else {
            throw PrivateBus.StartError(description: "the fake rtkit cannot take its name: \(error.message.map { String(cString: $0) } ?? "?")")
        }
        let service = _Service(library: library, connection: connection, behaviour: behaviour)
        let state = self.state
        thread = try RealtimeThread.start(RealtimeThread.Configuration(name: "fake-rtkit", realtimeKit: nil)) {
            service.serve(until: state.stopping) { call in state.calls.withLock { $0.append(call) } }
        }
    }

    /// Ends the service (its name leaves the bus).
    public func stop() {
        state.stopping.store(true, ordering: .releasing)
        thread.join()
    }
}

/// The service's replies; used on its thread only.
private struct _Service: @unchecked Sendable {
    let library: UnsafePointer<CHapticsDBus_Library>
    let connection: OpaquePointer
    let behaviour: FakeRealtimeKit.Behaviour

    /// Answers calls until `stopping` is set, then closes the connection.
    func serve(until stopping: borrowing Atomic<Bool>, record: (FakeRealtimeKit.Call) -> Void) {
        while !stopping.load(ordering: .acquiring) {
            _ = library.pointee.connection_read_write(connection, 50)
            while let message = library.pointee.connection_pop_message(connection) {
                answer(message, record: record)
                library.pointee.message_unref(message)
            }
        }
        library.pointee.connection_close(connection)
        library.pointee.connection_unref(connection)
    }

    /// Replies to `message`; a `MakeThreadRealtime` call is recorded before its reply is sent, so a
    /// caller that has its answer finds its call recorded.
    func answer(_ message: OpaquePointer, record: (FakeRealtimeKit.Call) -> Void) {
        guard library.pointee.message_get_type(message) == 1 else { return }  // DBUS_MESSAGE_TYPE_METHOD_CALL
        let interface = library.pointee.message_get_interface(message).map { String(cString: $0) } ?? ""
        let member = library.pointee.message_get_member(message).map { String(cString: $0) } ?? ""
        var arguments = DBusMessageIter()
        let hasArguments = library.pointee.message_iter_init(message, &arguments) != 0
        switch (interface, member) {
        case ("org.freedesktop.DBus.Properties", "Get"):
            let strings = hasArguments ? readStrings(&arguments) : []
            guard strings.count == 2, strings[0] == "org.freedesktop.RealtimeKit1" else {
                reply(error: "org.freedesktop.DBus.Error.InvalidArgs", "Get(ss) expected", to: message)
                return
            }
            switch strings[1] {
            case "MaxRealtimePriority": reply(variant: .int32(behaviour.maximumPriority), to: message)
            case "MinNiceLevel": reply(variant: .int32(-15), to: message)
            case "RTTimeUSecMax": reply(variant: .int64(behaviour.runTimeLimit), to: message)
            default: reply(error: "org.freedesktop.DBus.Error.UnknownProperty", "no property \(strings[1])", to: message)
            }
        case ("org.freedesktop.RealtimeKit1", "MakeThreadRealtime"):
            var thread: UInt64 = 0
            var priority: UInt32 = 0
            guard hasArguments, library.pointee.message_iter_get_arg_type(&arguments) == Int32(UInt8(ascii: "t")) else {
                reply(error: "org.freedesktop.DBus.Error.InvalidArgs", "MakeThreadRealtime(tu) expected", to: message)
                return
            }
            library.pointee.message_iter_get_basic(&arguments, &thread)
            guard library.pointee.message_iter_next(&arguments) != 0,
                  library.pointee.message_iter_get_arg_type(&arguments) == Int32(UInt8(ascii: "u")) else {
                reply(error: "org.freedesktop.DBus.Error.InvalidArgs", "MakeThreadRealtime(tu) expected", to: message)
                return
            }
            library.pointee.message_iter_get_basic(&arguments, &priority)
            // rtkit judges the thread's process: its RLIMIT_RTTIME, read where rtkit reads it.
            let limits = Self.file("/proc/\(thread)/limits") ?? ""
            let line = limits.split(separator: "\n").first { $0.hasPrefix("Max realtime timeout") } ?? ""
            let fields = line.dropFirst("Max realtime timeout".count).split(separator: " ")
            let hard = fields.count > 1 ? (UInt64(fields[1]) ?? UInt64.max) : UInt64.max
            let name = Self.file("/proc/\(thread)/comm").map { String($0.prefix { $0 != "\n" }) } ?? ""
            let call = FakeRealtimeKit.Call(thread: thread, priority: priority, runTimeLimit: hard, threadName: name)
            record(call)
            if let refusal = behaviour.refusal {
                reply(error: refusal.name, refusal.message, to: message)
            } else if hard > UInt64(behaviour.runTimeLimit) {
                reply(error: "org.freedesktop.DBus.Error.AccessDenied", "RLIMIT_RTTIME not set or too high", to: message)
            } else if Int32(priority) > behaviour.maximumPriority {
                reply(error: "org.freedesktop.DBus.Error.AccessDenied", "priority above MaxRealtimePriority", to: message)
            } else if name.isEmpty {
                reply(error: "org.freedesktop.DBus.Error.AccessDenied", "no thread \(thread)", to: message)
            } else {
                var parameter = sched_param(sched_priority: Int32(priority))
                if sched_setscheduler(pid_t(thread), SCHED_FIFO | 0x4000_0000, &parameter) == 0 {  // SCHED_RESET_ON_FORK
                    reply(to: message)
                } else {
                    reply(error: "org.freedesktop.DBus.Error.AccessDenied", String(cString: strerror(errno)), to: message)
                }
            }
        default:
            reply(error: "org.freedesktop.DBus.Error.UnknownMethod", "no method \(interface).\(member)", to: message)
        }
    }

    /// A /proc file's text, or `nil`.
    private static func file(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(descriptor, &chunk, chunk.count)
            guard count > 0 else { break }
            bytes += chunk.prefix(count)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private func readStrings(_ iterator: inout DBusMessageIter) -> [String] {
        var strings: [String] = []
        repeat {
            guard library.pointee.message_iter_get_arg_type(&iterator) == Int32(UInt8(ascii: "s")) else { return strings }
            var pointer: UnsafePointer<CChar>?
            library.pointee.message_iter_get_basic(&iterator, &pointer)
            strings.append(pointer.map { String(cString: $0) } ?? "")
        } while library.pointee.message_iter_next(&iterator) != 0
        return strings
    }

    private enum Value {
        case int32(Int32)
        case int64(Int64)
    }

    private func reply(variant value: Value, to message: OpaquePointer) {
        guard let reply = library.pointee.message_new_method_return(message) else { return }
        var iterator = DBusMessageIter()
        var variant = DBusMessageIter()
        library.pointee.message_iter_init_append(reply, &iterator)
        switch value {
        case .int32(var number):
            _ = library.pointee.message_iter_open_container(&iterator, Int32(UInt8(ascii: "v")), "i", &variant)
            _ = library.pointee.message_iter_append_basic(&variant, Int32(UInt8(ascii: "i")), &number)
        case .int64(var number):
            _ = library.pointee.message_iter_open_container(&iterator, Int32(UInt8(ascii: "v")), "x", &variant)
            _ = library.pointee.message_iter_append_basic(&variant, Int32(UInt8(ascii: "x")), &number)
        }
        _ = library.pointee.message_iter_close_container(&iterator, &variant)
        send(reply)
    }

    private func reply(to message: OpaquePointer) {
        guard let reply = library.pointee.message_new_method_return(message) else { return }
        send(reply)
    }

    private func reply(error name: String, _ text: String, to message: OpaquePointer) {
        guard let reply = library.pointee.message_new_error(message, name, text) else { return }
        send(reply)
    }

    private func send(_ reply: OpaquePointer) {
        _ = library.pointee.connection_send(connection, reply, nil)
        library.pointee.connection_flush(connection)
        library.pointee.message_unref(reply)
    }
}
