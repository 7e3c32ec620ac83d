#if DEBUG
import Synchronization

/// A debug-only seam that records the typed layer's system calls and forces errnos, so error
/// paths (`ENOSPC`, `ENODEV`, `EACCES`, `EINTR`…) are testable without a device.
///
/// Install a ``Driver`` for the duration of a closure with ``withDriver(_:_:)``. It is a task-local
/// value: only calls made by that task (and the threads it does not hand work to) see it, so tests
/// running in parallel do not disturb each other. Calls that are not forced still reach the kernel.
package enum SystemCallMocking {
    /// One system call seen by the seam.
    package struct Record: Hashable, Sendable, CustomStringConvertible {
        /// The call's name, e.g. `"write"` or `"EVIOCSFF"`.
        package var call: String
        /// The file descriptor it was made on (-1 for `open`).
        package var fileDescriptor: CInt
        /// The errno that was forced on this attempt, if any.
        package var forcedErrno: Errno?

        /// For example `write(5) → EINTR (Interrupted system call)`.
        package var description: String {
            "\(call)(\(fileDescriptor))" + (forcedErrno.map { " → \($0)" } ?? "")
        }
    }

    /// Records calls and hands out forced errnos, first in first out per call name.
    package final class Driver: Sendable {
        private struct State {
            var records: [Record] = []
            var forced: [String: [Errno]] = [:]
            var actions: [String: [@Sendable () -> Void]] = [:]
        }
        private let state = OrderedMutex(State())

        /// Creates a driver that forces nothing yet.
        package init() {}

        /// Makes the next `count` attempts of `call` fail with `errno` without reaching the kernel.
        package func force(_ errno: Errno, on call: String, count: Int = 1) {
            state.withLock { $0.forced[call, default: []].append(contentsOf: repeatElement(errno, count: count)) }
        }

        /// Runs `action` just before the next attempt of `call` reaches the kernel — to change the
        /// world between two calls (swap a file for a link while it is being read, say).
        package func perform(before call: String, _ action: @escaping @Sendable () -> Void) {
            state.withLock { $0.actions[call, default: []].append(action) }
        }

        /// Every attempt seen so far, in order (retries of `EINTR` are separate attempts).
        package var records: [Record] { state.withLock { $0.records } }

        fileprivate func intercept(_ call: String, fileDescriptor: CInt) -> Errno? {
            let (forced, action) = state.withLock { state -> (Errno?, (@Sendable () -> Void)?) in
                var forced: Errno?
                if var queue = state.forced[call], !queue.isEmpty {
                    forced = queue.removeFirst()
                    state.forced[call] = queue
                }
                var action: (@Sendable () -> Void)?
                if var queue = state.actions[call], !queue.isEmpty {
                    action = queue.removeFirst()
                    state.actions[call] = queue
                }
                state.records.append(Record(call: call, fileDescriptor: fileDescriptor, forcedErrno: forced))
                return (forced, action)
            }
            // Outside the lock: the action may make system calls of its own.
            action?()
            return forced
        }
    }

    @TaskLocal private static var driver: Driver?

    /// Runs `body` with `driver` recording and forcing the typed layer's system calls.
    package static func withDriver<Result>(_ driver: Driver, _ body: () throws -> Result) rethrows -> Result {
        try $driver.withValue(driver, operation: body)
    }

    @usableFromInline internal static func intercept(_ call: StaticString, fileDescriptor: CInt) -> Errno? {
        guard let driver else { return nil }
        return driver.intercept(call.description, fileDescriptor: fileDescriptor)
    }
}
#endif
