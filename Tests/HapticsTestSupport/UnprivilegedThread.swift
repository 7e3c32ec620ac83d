import CEvdev
import Glibc
import HapticsSystem

/// Whether a test can run code as another user on a thread of its own: it runs as root.
public let canDropPrivileges = getuid() == 0

/// Runs `body` on a new thread whose user and group are `nobody` (65534), and waits for it: that
/// thread has no capabilities, so the kernel refuses it `SCHED_FIFO` (with `RLIMIT_RTPRIO` 0) as it
/// refuses a desktop user, and threads it starts inherit that. Only the thread changes (raw
/// `setresuid`, not glibc's process-wide one). Without root, `body` runs on the new thread as it is.
public func onUnprivilegedThread(_ body: @escaping @Sendable () -> Void) throws {
    let thread = try RealtimeThread.start(RealtimeThread.Configuration(name: "unprivileged", realtimeKit: nil)) {
        if canDropPrivileges {
            precondition(CEvdev_setThreadCredentials(65_534, 65_534) == 0, "setresuid on the thread: \(Errno.current)")
        }
        body()
    }
    thread.join()
}
