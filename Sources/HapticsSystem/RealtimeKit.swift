import CHapticsDBus
import Glibc

/// rtkit (`org.freedesktop.RealtimeKit1`), the system service that gives `SCHED_FIFO` to the threads
/// of users who may not set it themselves: desktop sound servers get their priority this way.
///
/// A ``RealtimeThread`` refused `SCHED_FIFO` with `EPERM` asks it, on the system bus, or at the
/// address of `HAPTICS_RTKIT_BUS_ADDRESS` when that is set. Before asking, it lowers the process's
/// `RLIMIT_RTTIME` to rtkit's `RTTimeUSecMax` (rtkit grants nothing without that limit): a realtime
/// thread that runs that long without sleeping is then stopped by the kernel. libdbus-1 is loaded
/// when first needed; without it, or without a bus or rtkit, the thread runs at normal priority and
/// ``RealtimeKitError`` says why.
public enum RealtimeKit {
    /// Where rtkit is asked.
    public enum Bus: Sendable, Hashable {
        /// The system bus: `HAPTICS_RTKIT_BUS_ADDRESS` when set, else `DBUS_SYSTEM_BUS_ADDRESS`,
        /// else `unix:path=/run/dbus/system_bus_socket`.
        case system
        /// A bus at this D-Bus address (`unix:path=/tmp/…`): tests run a fake rtkit on a private bus.
        case address(String)

        /// The address this bus has now.
        public var address: String {
            switch self {
            case .address(let address): return address
            case .system:
                for name in ["HAPTICS_RTKIT_BUS_ADDRESS", "DBUS_SYSTEM_BUS_ADDRESS"] {
                    if let value = getenv(name), value.pointee != 0 { return String(cString: value) }
                }
                return "unix:path=/run/dbus/system_bus_socket"
            }
        }
    }

    /// What rtkit allows, read from its properties.
    public struct Limits: Sendable, Hashable {
        /// The highest `SCHED_FIFO` priority it grants (`MaxRealtimePriority`; 20 by default).
        public var maximumPriority: Int32
        /// The longest a realtime thread may run without sleeping (`RTTimeUSecMax`; 200 ms by default),
        /// in microseconds: the process's `RLIMIT_RTTIME` must be at most this.
        public var runTimeLimitMicroseconds: Int64

        /// Creates limits.
        public init(maximumPriority: Int32, runTimeLimitMicroseconds: Int64) {
            self.maximumPriority = maximumPriority
            self.runTimeLimitMicroseconds = runTimeLimitMicroseconds
        }
    }

    /// The service's bus name, object path and interface.
    public static let serviceName = "org.freedesktop.RealtimeKit1"
    /// The object rtkit serves.
    public static let objectPath = "/org/freedesktop/RealtimeKit1"

    /// rtkit's limits, read from its properties on `bus`. Control side: blocks for two round trips.
    public static func limits(on bus: Bus = .system) throws(RealtimeKitError) -> Limits {
        let connection = try _BusConnection(address: bus.address)
        defer { connection.close() }
        return try limits(connection)
    }

    /// Asks rtkit on `bus` to give thread `thread` (a kernel thread id of this process) `SCHED_FIFO`
    /// at `priority`, lowered to rtkit's maximum; returns the priority granted. It sets the process's
    /// `RLIMIT_RTTIME` to rtkit's limit first when it is higher. Control side: blocks for three round
    /// trips (a timeout of 2 s each).
    ///
    /// The corresponding D-Bus method is `org.freedesktop.RealtimeKit1.MakeThreadRealtime`.
    public static func makeRealtime(thread: Int32, priority: Int32, on bus: Bus = .system) throws(RealtimeKitError) -> Int32 {
        let connection = try _BusConnection(address: bus.address)
        defer { connection.close() }
        let limits = try limits(connection)
        guard limits.maximumPriority >= 1 else { throw .noPriorityAllowed(maximum: limits.maximumPriority) }
        try lowerRunTimeLimit(to: limits.runTimeLimitMicroseconds)
        let granted = min(priority, limits.maximumPriority)
        try connection.call(member: "MakeThreadRealtime", interface: serviceName,
                            arguments: [.uint64(UInt64(thread)), .uint32(UInt32(granted))])
        return granted
    }

    private static func limits(_ connection: _BusConnection) throws(RealtimeKitError) -> Limits {
        let priority = try connection.property("MaxRealtimePriority")
        let time = try connection.property("RTTimeUSecMax")
        return Limits(maximumPriority: Int32(clamping: priority), runTimeLimitMicroseconds: time)
    }

    /// `RLIMIT_RTTIME` at most `limit` µs, hard limit included, as rtkit requires; a lower limit
    /// already set is kept.
    private static func lowerRunTimeLimit(to limit: Int64) throws(RealtimeKitError) {
        let resource = __rlimit_resource_t(__RLIMIT_RTTIME.rawValue)
        var current = rlimit()
        guard getrlimit(resource, &current) == 0 else { throw .runTimeLimit(Errno.current) }
        let wanted = rlim_t(max(limit, 1))
        guard current.rlim_max > wanted else { return }  // RLIM_INFINITY is the largest value.
        var lowered = rlimit(rlim_cur: min(current.rlim_cur, wanted), rlim_max: wanted)
        guard setrlimit(resource, &lowered) == 0 else { throw .runTimeLimit(Errno.current) }
    }
}

/// Why rtkit did not grant realtime priority.
public enum RealtimeKitError: Error, Sendable, Hashable, CustomStringConvertible {
    /// libdbus-1.so.3 cannot be loaded (the message is the loader's).
    case libraryMissing(String)
    /// No bus answers at `address`.
    case busUnavailable(address: String, message: String)
    /// Nothing owns `org.freedesktop.RealtimeKit1` on the bus: rtkit is not installed or not running.
    case serviceMissing(message: String)
    /// rtkit answered with this D-Bus error (it refuses users, priorities or processes its policy
    /// does not allow).
    case refused(name: String, message: String)
    /// rtkit grants no priority at all (`MaxRealtimePriority` is below 1).
    case noPriorityAllowed(maximum: Int32)
    /// `RLIMIT_RTTIME` could not be lowered to rtkit's limit.
    case runTimeLimit(Errno)
    /// rtkit answered something else than rtkit answers, or said yes to a thread that did not change.
    case unexpectedReply(String)

    public var description: String {
        switch self {
        case .libraryMissing(let message): return "libdbus-1 cannot be loaded (\(message))"
        case .busUnavailable(let address, let message): return "no D-Bus at \(address) (\(message))"
        case .serviceMissing(let message): return "rtkit is not on the bus (\(message))"
        case .refused(let name, let message): return "rtkit refused: \(name): \(message)"
        case .noPriorityAllowed(let maximum): return "rtkit allows no realtime priority (MaxRealtimePriority \(maximum))"
        case .runTimeLimit(let errno): return "RLIMIT_RTTIME cannot be set for rtkit (\(errno))"
        case .unexpectedReply(let message): return "rtkit answered unexpectedly: \(message)"
        }
    }
}

/// One private connection to a bus, for a few blocking calls to rtkit.
final class _BusConnection {
    enum Argument {
        case uint64(UInt64)
        case uint32(UInt32)
        case string(String)
    }

    /// The seconds a call may take: a bus that activates rtkit on the first call needs some.
    static let timeoutMilliseconds: Int32 = 2_000

    let library: UnsafePointer<CHapticsDBus_Library>
    let connection: OpaquePointer

    init(address: String) throws(RealtimeKitError) {
        guard let library = CHapticsDBus_library() else {
            throw .libraryMissing(CHapticsDBus_loadError().map { String(cString: $0) } ?? "unknown")
        }
        self.library = library
        var error = DBusError()
        library.pointee.error_init(&error)
        guard let connection = library.pointee.connection_open_private(address, &error) else {
            defer { library.pointee.error_free(&error) }
            throw .busUnavailable(address: address, message: Self.message(error))
        }
        // A private connection does not exit the process when the bus goes away (a shared one,
        // from dbus_bus_get, would).
        guard library.pointee.bus_register(connection, &error) != 0 else {
            defer { library.pointee.error_free(&error) }
            library.pointee.connection_close(connection)
            library.pointee.connection_unref(connection)
            throw .busUnavailable(address: address, message: Self.message(error))
        }
        self.connection = connection
    }

    func close() {
        library.pointee.connection_close(connection)
        library.pointee.connection_unref(connection)
    }

    /// An integer property of rtkit (`org.freedesktop.DBus.Properties.Get`).
    func property(_ name: String) throws(RealtimeKitError) -> Int64 {
        let reply = try call(member: "Get", interface: "org.freedesktop.DBus.Properties",
                             arguments: [.string(RealtimeKit.serviceName), .string(name)])
        defer { library.pointee.message_unref(reply) }
        var iterator = DBusMessageIter()
        var variant = DBusMessageIter()
        guard library.pointee.message_iter_init(reply, &iterator) != 0,
              library.pointee.message_iter_get_arg_type(&iterator) == _DBusType.variant else {
            throw .unexpectedReply("\(name) is not a variant")
        }
        library.pointee.message_iter_recurse(&iterator, &variant)
        switch library.pointee.message_iter_get_arg_type(&variant) {
        case _DBusType.int32:
            var value: Int32 = 0
            library.pointee.message_iter_get_basic(&variant, &value)
            return Int64(value)
        case _DBusType.uint32:
            var value: UInt32 = 0
            library.pointee.message_iter_get_basic(&variant, &value)
            return Int64(value)
        case _DBusType.int64:
            var value: Int64 = 0
            library.pointee.message_iter_get_basic(&variant, &value)
            return value
        case _DBusType.uint64:
            var value: UInt64 = 0
            library.pointee.message_iter_get_basic(&variant, &value)
            return Int64(clamping: value)
        default:
            throw .unexpectedReply("\(name) is not an integer")
        }
    }

    /// Calls `member` of rtkit's object and returns the reply; the caller unrefs it.
    @discardableResult
    func call(member: String, interface: String, arguments: [Argument]) throws(RealtimeKitError) -> OpaquePointer {
        guard let message = library.pointee.message_new_method_call(RealtimeKit.serviceName, RealtimeKit.objectPath, interface, member) else {
            throw .unexpectedReply("out of memory")
        }
        defer { library.pointee.message_unref(message) }
        var iterator = DBusMessageIter()
        library.pointee.message_iter_init_append(message, &iterator)
        for argument in arguments {
            switch argument {
            case .uint64(var value): _ = library.pointee.message_iter_append_basic(&iterator, _DBusType.uint64, &value)
            case .uint32(var value): _ = library.pointee.message_iter_append_basic(&iterator, _DBusType.uint32, &value)
            case .string(let text):
                text.withCString { pointer in
                    var pointer: UnsafePointer<CChar>? = pointer
                    _ = library.pointee.message_iter_append_basic(&iterator, _DBusType.string, &pointer)
                }
            }
        }
        var error = DBusError()
        library.pointee.error_init(&error)
        guard let reply = library.pointee.connection_send_with_reply_and_block(connection, message, Self.timeoutMilliseconds, &error) else {
            defer { library.pointee.error_free(&error) }
            let name = error.name.map { String(cString: $0) } ?? "unknown"
            if name == "org.freedesktop.DBus.Error.ServiceUnknown" || name == "org.freedesktop.DBus.Error.NameHasNoOwner" {
                throw .serviceMissing(message: Self.message(error))
            }
            throw .refused(name: name, message: error.message.map { String(cString: $0) } ?? "")
        }
        return reply
    }

    static func message(_ error: DBusError) -> String {
        let name = error.name.map { String(cString: $0) } ?? "unknown error"
        let message = error.message.map { String(cString: $0) } ?? ""
        return message.isEmpty ? name : "\(name): \(message)"
    }
}

/// D-Bus type codes (`DBUS_TYPE_*`: macros Swift does not import).
enum _DBusType {
    static let int32 = Int32(UInt8(ascii: "i"))
    static let uint32 = Int32(UInt8(ascii: "u"))
    static let int64 = Int32(UInt8(ascii: "x"))
    static let uint64 = Int32(UInt8(ascii: "t"))
    static let string = Int32(UInt8(ascii: "s"))
    static let variant = Int32(UInt8(ascii: "v"))
}
