import CHapticsSystem
import Glibc
import HapticsSystem
import Synchronization

/// The one thread that answers every uinput sink of the process: one `poll` over all their
/// descriptors, so that the writes of a millisecond reaching 32 sinks wake one thread once instead
/// of 32 threads (under emulation each wake-up costs tens of microseconds of the one processor the
/// engine's realtime thread also needs).
///
/// A sink must be answered concurrently with whoever drives it (an upload blocks the uploader in
/// `EVIOCSFF` until the sink answers), so the thread runs while any sink is registered: the first
/// registration starts it, the last removal stops and joins it. Handlers run with the registry
/// locked and never block (non-blocking reads and the uinput answer ioctls), so no handler of a
/// sink runs after ``remove(_:)`` returns.
internal final class _SinkReader: Sendable {
    /// Every sink of the process shares this reader.
    static let shared = _SinkReader()

    /// A registration, kept by its sink to remove it.
    struct Registration: Sendable {
        fileprivate let token: UInt64
    }

    private struct Handler {
        var descriptor: CInt
        var handle: @Sendable () -> Void
    }

    private struct State: ~Copyable {
        var handlers: [UInt64: Handler] = [:]
        var nextToken: UInt64 = 1
        /// Bumped by every registration change; the thread rebuilds its poll set when it moves.
        var generation = 0
        var thread: _Thread?
    }

    private let state = OrderedMutex(State())

    /// Calls `handle` on the reader thread whenever `device` is readable, until ``remove(_:)``.
    ///
    /// The corresponding C functions are `pipe` and `pthread_create` (for the first sink).
    func add(_ device: FileDescriptor, handle: @escaping @Sendable () -> Void) throws(SystemCallError) -> Registration {
        let token = try state.withLock { (state) throws(SystemCallError) -> UInt64 in
            let thread: _Thread
            if let running = state.thread {
                thread = running
            } else {
                thread = try _Thread(reader: self)
                state.thread = thread
            }
            let token = state.nextToken
            state.nextToken += 1
            state.handlers[token] = Handler(descriptor: device.rawValue, handle: handle)
            state.generation += 1
            thread.wake()
            return token
        }
        return Registration(token: token)
    }

    /// Stops calling the registration's handler (a call in progress returns first); the last
    /// removal stops the thread and waits for it to end.
    func remove(_ registration: Registration) {
        let idle = state.withLock { state -> _Thread? in
            guard state.handlers.removeValue(forKey: registration.token) != nil, let thread = state.thread else {
                return nil
            }
            state.generation += 1
            guard state.handlers.isEmpty else {
                thread.wake()
                return nil
            }
            state.thread = nil
            return thread
        }
        // Outside the lock: the thread takes it to look at the registry before it sees the stop.
        idle?.stop()
    }

    /// The reader thread's loop: rebuild the poll set when registrations changed, wait, dispatch.
    fileprivate func run(_ thread: _Thread) {
        _ = CHapticsSystem_setThreadName("haptics-uinput")
        var entries: [pollfd] = []
        var tokens: [UInt64] = []
        var hungUp: Set<UInt64> = []
        var generation = -1
        while !thread.isStopping {
            state.withLock { state in
                guard state.generation != generation else { return }
                generation = state.generation
                hungUp.formIntersection(state.handlers.keys)
                entries = [pollfd(fd: thread.wakeReader, events: Int16(POLLIN), revents: 0)]
                tokens = [0]
                for (token, handler) in state.handlers where !hungUp.contains(token) {
                    entries.append(pollfd(fd: handler.descriptor, events: Int16(POLLIN), revents: 0))
                    tokens.append(token)
                }
            }
            let ready = poll(&entries, nfds_t(entries.count), -1)
            if ready < 0 {
                if Errno.current == .interrupted { continue }
                return
            }
            if entries[0].revents != 0 { thread.drainWakes() }
            state.withLock { state in
                for index in 1..<entries.count where entries[index].revents != 0 {
                    guard let handler = state.handlers[tokens[index]] else { continue }
                    if entries[index].revents & Int16(POLLIN) != 0 {
                        handler.handle()
                    } else {
                        // POLLHUP/POLLERR: nothing more will arrive, and poll would report it forever.
                        hungUp.insert(tokens[index])
                        generation = -1
                    }
                }
            }
        }
    }
}

/// A running reader thread: its pthread, the pipe that wakes it and its stop flag.
private final class _Thread: @unchecked Sendable {
    let wakeReader: CInt
    private let wakeWriter: CInt
    private let stopping = Atomic<Bool>(false)
    private var thread = pthread_t()

    var isStopping: Bool { stopping.load(ordering: .acquiring) }

    /// Starts the thread running `reader`'s loop.
    init(reader: _SinkReader) throws(SystemCallError) {
        var ends: [CInt] = [-1, -1]
        guard pipe(&ends) == 0 else { throw SystemCallError(call: "pipe", errno: .current) }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC); _ = fcntl(end, F_SETFL, O_NONBLOCK) }
        wakeReader = ends[0]
        wakeWriter = ends[1]
        let context = Unmanaged.passRetained(_Context(reader: reader, thread: self)).toOpaque()
        let status = pthread_create(&thread, nil, { context in
            let context = Unmanaged<_Context>.fromOpaque(context!).takeRetainedValue()
            context.reader.run(context.thread)
            return nil
        }, context)
        guard status == 0 else {
            Unmanaged<_Context>.fromOpaque(context).release()
            Glibc.close(wakeReader)
            Glibc.close(wakeWriter)
            throw SystemCallError(call: "pthread_create", errno: Errno(rawValue: status))
        }
    }

    /// Makes the thread look at the registry again (a full pipe already will).
    func wake() {
        var one: UInt8 = 1
        _ = Glibc.write(wakeWriter, &one, 1)
    }

    /// Empties the wake pipe (non-blocking).
    func drainWakes() {
        var bytes = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        while Glibc.read(wakeReader, &bytes, MemoryLayout.size(ofValue: bytes)) > 0 {}
    }

    /// Ends the thread, waits for it and closes the pipe.
    func stop() {
        stopping.store(true, ordering: .releasing)
        wake()
        pthread_join(thread, nil)
        Glibc.close(wakeReader)
        Glibc.close(wakeWriter)
    }
}

/// What the new thread starts with.
private final class _Context {
    let reader: _SinkReader
    let thread: _Thread
    init(reader: _SinkReader, thread: _Thread) {
        self.reader = reader
        self.thread = thread
    }
}
