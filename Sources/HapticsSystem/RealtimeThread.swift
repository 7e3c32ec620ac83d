import CHapticsSystem
import Glibc
import Synchronization

/// A thread that runs one realtime loop: named, with a 1 ns timer slack, and `SCHED_FIFO` when the
/// system grants it.
///
/// Both realtime threads of the engine are this type (the scheduler's `haptics-rt` and the audio
/// output's `haptics-audio`). ``start(_:body:)`` returns once the thread has its name, slack and the
/// answer to its priority request (``grant``), so a caller's statistics describe a configured
/// thread; `body` then runs on it until it returns. A refusal of `SCHED_FIFO` (`EPERM` in containers
/// and for most desktop users) is kept in ``grant`` and the thread carries on at normal priority.
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

        /// Creates a configuration. `name` must be at most 15 bytes long.
        public init(name: String, priority: Int32? = nil, timerSlack: Duration = .nanoseconds(1)) {
            precondition(name.utf8.count <= 15, "thread name '\(name)' is longer than 15 bytes")
            self.name = name
            self.priority = priority
            self.timerSlack = timerSlack
        }
    }

    /// What the system granted the thread when it started.
    public struct Grant: Sendable, Hashable {
        /// The timer slack the thread has (`PR_GET_TIMERSLACK`), or `nil` if unknown.
        public var timerSlack: Duration?
        /// Why `SCHED_FIFO` was refused (usually `EPERM`), or `nil` when it was granted or not asked.
        public var priorityRefusal: Errno?
        /// Whether the thread runs with the `SCHED_FIFO` priority it asked for.
        public var hasRealtimePriority: Bool

        /// Creates a grant.
        public init(timerSlack: Duration?, priorityRefusal: Errno?, hasRealtimePriority: Bool) {
            self.timerSlack = timerSlack
            self.priorityRefusal = priorityRefusal
            self.hasRealtimePriority = hasRealtimePriority
        }
    }

    /// The configuration the thread was started with.
    public let configuration: Configuration
    /// What the system granted; set before ``start(_:body:)`` returns.
    public var grant: Grant { _grant.withLock { $0 } }

    private let _grant = OrderedMutex(Grant(timerSlack: nil, priorityRefusal: nil, hasRealtimePriority: false))
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
        while !thread.configured.load(ordering: .acquiring) { sched_yield() }
        return thread
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
        var refusal: Errno?
        var granted = false
        if let priority = configuration.priority {
            let result = CHapticsSystem_requestRealtimePriority(priority)
            if result == 0 { granted = true } else { refusal = Errno(rawValue: result) }
        }
        _grant.withLock {
            $0 = Grant(timerSlack: slack >= 0 ? .nanoseconds(slack) : nil, priorityRefusal: refusal, hasRealtimePriority: granted)
        }
        configured.store(true, ordering: .releasing)
        body()
    }
}

/// The thread's entry point: a nonisolated library function (a closure written in an executable's
/// top-level code would inherit `@MainActor` isolation and trap on this thread).
private func _realtimeThreadMain(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let context else { return nil }
    Unmanaged<RealtimeThread>.fromOpaque(context).takeRetainedValue().run()
    return nil
}
