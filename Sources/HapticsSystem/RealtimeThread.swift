import CHapticsSystem
import Glibc
import Synchronization

/// A thread that runs one realtime loop: named, with a 1 ns timer slack, and `SCHED_FIFO` when the
/// system grants it.
///
/// Both realtime threads of the engine are this type (the scheduler's `haptics-rt` and the audio
/// output's `haptics-audio`). ``start(_:body:)`` returns once the thread has its name, slack and the
/// answer to its priority request (``grant``), so a caller's statistics describe a configured
/// thread; `body` then runs on it until it returns. When `SCHED_FIFO` is refused with `EPERM` (most
/// desktop users, whose `RLIMIT_RTPRIO` is 0), the thread asks rtkit for it (``RealtimeKit``), as
/// sound servers do; refused there too, it carries on at normal priority, and ``grant`` says why.
///
/// The thread owns nothing of the caller's: `body` holds what it needs. ``join()`` waits for `body`
/// to return; a thread that is never joined keeps running until its body returns.
public final class RealtimeThread: Sendable {
    /// How to set the thread up.
    public struct Configuration: Sendable, Hashable {
        /// The name shown by `top -H`, `ps -L` and trace viewers: at most 15 bytes (the kernel's limit).
        public var name: String
        /// The `SCHED_FIFO` priority to ask for (1…99), or `nil` not to ask.
        public var priority: Int32?
        /// The timer slack (`PR_SET_TIMERSLACK`, in whole nanoseconds): 1 ns makes absolute deadlines
        /// precise; `.zero` (or less) gives the thread the process's default slack.
        public var timerSlack: Duration
        /// Where to ask rtkit when `SCHED_FIFO` is refused with `EPERM`, or `nil` not to ask.
        public var realtimeKit: RealtimeKit.Bus?

        /// Creates a configuration. `name` must be at most 15 bytes long.
        public init(name: String, priority: Int32? = nil, timerSlack: Duration = .nanoseconds(1),
                    realtimeKit: RealtimeKit.Bus? = .system) {
            precondition(name.utf8.count <= 15, "thread name '\(name)' is longer than 15 bytes")
            self.name = name
            self.priority = priority
            self.timerSlack = timerSlack
            self.realtimeKit = realtimeKit
        }
    }

    /// The scheduling a thread got, and how.
    public enum Priority: Sendable, Hashable, CustomStringConvertible {
        /// Normal priority, as asked (no `SCHED_FIFO` priority was asked for).
        case normal
        /// `SCHED_FIFO` at this priority, set by the thread itself.
        case fifo(Int32)
        /// `SCHED_FIFO` at this priority, granted by rtkit after the thread's own request was refused
        /// (`refusal`, `EPERM`). rtkit lowers the priority asked to its maximum (20 by default).
        case fifoThroughRealtimeKit(Int32, refusal: Errno)
        /// Normal priority: `SCHED_FIFO` was refused with `refusal`, and rtkit did not grant it
        /// (`realtimeKit` says why; `nil` when it was not asked).
        case refused(Errno, realtimeKit: RealtimeKitError?)

        /// Whether the thread runs with `SCHED_FIFO`.
        public var isRealtime: Bool {
            switch self {
            case .fifo, .fifoThroughRealtimeKit: return true
            case .normal, .refused: return false
            }
        }

        /// For example `SCHED_FIFO 20 through rtkit`, or `normal priority: SCHED_FIFO refused (EPERM
        /// (Operation not permitted)); rtkit is not on the bus (…)`.
        public var description: String {
            switch self {
            case .normal: return "normal priority (no realtime priority asked for)"
            case .fifo(let priority): return "SCHED_FIFO \(priority)"
            case .fifoThroughRealtimeKit(let priority, _): return "SCHED_FIFO \(priority) through rtkit"
            case .refused(let errno, let realtimeKit):
                return "normal priority: SCHED_FIFO refused (\(errno))" + (realtimeKit.map { "; \($0)" } ?? "")
            }
        }
    }

    /// What the system granted the thread when it started.
    public struct Grant: Sendable, Hashable {
        /// The timer slack the thread has (`PR_GET_TIMERSLACK`), or `nil` if unknown.
        public var timerSlack: Duration?
        /// The thread's kernel id (`gettid`), as `top -H` and rtkit know it.
        public var threadID: Int32
        /// The scheduling the thread got, and how.
        public var priority: Priority

        /// Whether the thread runs with `SCHED_FIFO` (set by itself or by rtkit).
        public var hasRealtimePriority: Bool { priority.isRealtime }
        /// Why the thread's own `SCHED_FIFO` request was refused (usually `EPERM`), when it runs at
        /// normal priority; `nil` when it runs with `SCHED_FIFO` or did not ask.
        public var priorityRefusal: Errno? {
            if case .refused(let errno, _) = priority { return errno }
            return nil
        }

        /// Creates a grant.
        public init(timerSlack: Duration?, threadID: Int32, priority: Priority) {
            self.timerSlack = timerSlack
            self.threadID = threadID
            self.priority = priority
        }
    }

    /// The configuration the thread was started with.
    public let configuration: Configuration
    /// What the system granted; set before ``start(_:body:)`` returns.
    public var grant: Grant { _grant.withLock { $0 } }

    private let _grant = OrderedMutex(Grant(timerSlack: nil, threadID: 0, priority: .normal))
    private let configured = Atomic<Bool>(false)
    private let handle = OrderedMutex<pthread_t?>(nil)
    private let body: @Sendable () -> Void

    private init(configuration: Configuration, body: @escaping @Sendable () -> Void) {
        self.configuration = configuration
        self.body = body
    }

    /// Starts a thread that sets itself up as `configuration` says and then runs `body`.
    /// Returns once the thread is configured. Control side: it allocates and may block briefly.
    ///
    /// The corresponding C function is `pthread_create`.
    public static func start(
        _ configuration: Configuration, body: @escaping @Sendable () -> Void
    ) throws(SystemCallError) -> RealtimeThread {
        let thread = RealtimeThread(configuration: configuration, body: body)
        var pthread = pthread_t()
        let context = Unmanaged.passRetained(thread).toOpaque()
        let result = pthread_create(&pthread, nil, _realtimeThreadMain, context)
        guard result == 0 else {
            Unmanaged<RealtimeThread>.fromOpaque(context).release()
            throw SystemCallError(call: "pthread_create", errno: Errno(rawValue: result))
        }
        thread.handle.withLock { $0 = pthread }
        // Configuring takes microseconds, or a few D-Bus round trips when rtkit is asked (the
        // thread then blocks, and yielding to it would spin: a millisecond, then sleep).
        yield(for: .milliseconds(1)) { thread.configured.load(ordering: .acquiring) }
        return thread
    }

    /// Gives the processor away until `condition` holds: yielding for up to `limit`, then sleeping
    /// 100 µs at a time. For a thread just started, whose first steps should run while the caller
    /// is still runnable. The kernel's fair scheduler places a new thread a slice ahead of its
    /// creator in virtual run time; run while the creator sleeps, it lifts the run queue's minimum
    /// past the creator, whose next `write()` to a device then is not preempted by the driver's
    /// worker it wakes: the report waits until the creator sleeps. Yielding lets the new thread run
    /// only once the creator has caught up to within the wake-up granularity (on one processor
    /// that takes the creator a couple of milliseconds of yields; elsewhere the thread runs on
    /// another processor at once), so the limit is in time, not in yields. Control side.
    package static func yield(for limit: Duration = .milliseconds(50), until condition: () -> Bool) {
        let end = CHapticsSystem_monotonicNow() + limit.nanoseconds
        while !condition() {
            if CHapticsSystem_monotonicNow() < end {
                sched_yield()
            } else {
                var pause = timespec(tv_sec: 0, tv_nsec: 100_000)
                nanosleep(&pause, nil)
            }
        }
    }

    /// Waits until `body` has returned. Idempotent; must not be called from the thread itself.
    ///
    /// The corresponding C function is `pthread_join`.
    public func join() {
        guard let pthread = handle.withLock({ handle -> pthread_t? in
            defer { handle = nil }
            return handle
        }) else { return }
        precondition(pthread_equal(pthread, pthread_self()) == 0, "RealtimeThread.join() called on the thread itself")
        pthread_join(pthread, nil)
    }

    /// Lets the thread end on its own: its resources go back to the system when its body returns,
    /// and nobody joins it. For a thread that ends itself (its body asked it to stop, from the
    /// thread). Idempotent; a thread already joined or detached is left alone.
    ///
    /// The corresponding C function is `pthread_detach`.
    package func detach() {
        guard let pthread = handle.withLock({ handle -> pthread_t? in
            defer { handle = nil }
            return handle
        }) else { return }
        pthread_detach(pthread)
    }

    /// Runs on the new thread: set up, announce the grant, run the body.
    fileprivate func run() {
        configuration.name.withCString { _ = CHapticsSystem_setThreadName($0) }
        _ = CHapticsSystem_setTimerSlack(UInt64(clamping: configuration.timerSlack.nanoseconds))
        let slack = CHapticsSystem_timerSlack()
        let thread = ThreadIdentity.current
        let priority = configuration.priority.map { requestPriority($0, thread: thread) } ?? .normal
        _grant.withLock {
            $0 = Grant(timerSlack: slack >= 0 ? .nanoseconds(slack) : nil, threadID: thread, priority: priority)
        }
        configured.store(true, ordering: .releasing)
        body()
    }

    /// `SCHED_FIFO` at `wanted`, set by the thread itself, else through rtkit when the refusal is
    /// `EPERM` (a missing privilege, which rtkit exists to lend).
    private func requestPriority(_ wanted: Int32, thread: Int32) -> Priority {
        let result = CHapticsSystem_requestRealtimePriority(wanted)
        guard result != 0 else { return .fifo(wanted) }
        let refusal = Errno(rawValue: result)
        guard refusal == .notPermitted, let bus = configuration.realtimeKit else {
            return .refused(refusal, realtimeKit: nil)
        }
        do {
            let granted = try RealtimeKit.makeRealtime(thread: thread, priority: wanted, on: bus)
            // rtkit's yes is checked against the kernel's view of the thread.
            var parameter = sched_param()
            let policy = sched_getscheduler(0) & ~Int32(0x4000_0000)  // Without SCHED_RESET_ON_FORK.
            guard policy == SCHED_FIFO, sched_getparam(0, &parameter) == 0, parameter.sched_priority == granted else {
                return .refused(refusal, realtimeKit: .unexpectedReply(
                    "it accepted thread \(thread) at priority \(granted), but the thread is not SCHED_FIFO \(granted)"))
            }
            return .fifoThroughRealtimeKit(granted, refusal: refusal)
        } catch {
            return .refused(refusal, realtimeKit: error)
        }
    }
}

/// The thread's entry point: a nonisolated library function (a closure written in an executable's
/// top-level code would inherit `@MainActor` isolation and trap on this thread).
private func _realtimeThreadMain(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let context else { return nil }
    Unmanaged<RealtimeThread>.fromOpaque(context).takeRetainedValue().run()
    return nil
}
