import Glibc
import HapticsRendering
import HapticsScheduler
import HapticsSystem
import HapticsTestSupport
import Synchronization
import Testing

/// A game's thread playing from its own thread owns processing for the length of its pass. Here it
/// is preempted mid-pass by other `SCHED_FIFO` work of lower priority than the realtime thread's —
/// the classic priority inversion — on one processor, when the realtime thread's deadline comes.
/// The realtime thread's wait lends the game's thread its priority (a priority-inheriting futex):
/// the pass ends, the deadline's write goes out, and only then does the other work go on. Without
/// the lent priority the write waits for the other work to end (on the code before, in a host run
/// pinned to one processor with a 0.5 s spin: 0.45 s late; 0.27 ms with it).
@Suite(.requiresKernelTestbench, .serialized)
struct ProcessingPriorityKernelTests {
    static let ms: Int64 = 1_000_000
    /// How long the lower-priority work spins on the processor.
    static let hogLength: Int64 = 600 * ms
    /// When the level stops after it starts: the realtime thread's deadline in the scene.
    static let levelLength: Int64 = 100 * ms
    static let hogPriority: Int32 = 10

    /// What the game's thread saw.
    struct Sighting: Sendable {
        var heldProcessing = false
        var passBegan: Int64 = 0
        /// The kernel's priority of the game's thread (`/proc/thread-self/stat`, field 18: 20 for
        /// nice 0; −1 − p for `SCHED_FIFO` priority p) as it ran again inside its pass.
        var priorityInPass: Int = 0
        var priorityAfter: Int = 0
        var passEnded: Int64 = 0
        var hogEnded: Int64 = 0
    }

    @Test("a game's thread preempted inside its pass by lower-priority realtime work: the realtime thread's wait lends it its priority and a level's stop goes out on time, before the other work ends")
    func waitingRealtimeThreadLendsItsPriority() throws {
        let clock = SystemMonotonicClock()
        let scheduler = Scheduler(clock: clock)
        let output = RecordingActuator()
        let profile = DeviceProfile.genericRumble
        let channel = try scheduler.addChannel(output: output, profile: profile)
        let level = ActuatorCommand.rumble(strong: 30_000, weak: 30_000)
        let program = try scheduler.load(Program(profileName: profile.name, commands: [
            TimedCommand(offsetNanoseconds: 0, intensity: 1, sharpness: 0.5, command: level),
            TimedCommand(offsetNanoseconds: Self.levelLength, intensity: 0, sharpness: 0, command: .stop),
        ], durationNanoseconds: Self.levelLength, leadTimeNanoseconds: 0))
        let player = try scheduler.makePlayer(program: program, channel: channel)

        // Every thread of the scene on processor 0 (threads take their creator's processors).
        let saved = try #require(Affinity.current())
        try #require(Affinity.set(processors: [0]))
        defer { _ = Affinity.restore(saved) }
        try scheduler.startRealtimeThread()
        defer { scheduler.stopRealtimeThread() }
        let grant = try #require(scheduler.statistics.realtimeThread)
        try #require(grant.hasRealtimePriority, "the realtime thread needs SCHED_FIFO here: \(String(describing: grant.priorityRefusal))")

        // The level now; its stop is the realtime thread's deadline in the scene.
        let start = clock.now().nanoseconds
        #expect(scheduler.start(player, at: MonotonicInstant(nanoseconds: start)))
        #expect(waitUntil { output.recorded.count == 1 })
        let deadline = start + Self.levelLength

        let sighting = Mutex(Sighting())
        let game = try SceneThread.start(fifoPriority: nil) {
            let began = clock.now().nanoseconds
            let group = scheduler.beginImmediateGroup()
            // Preempted here at once: the other work outranks this thread, and spins.
            let hogEnded = Atomic<Int64>(0)
            let hog = try? SceneThread.start(fifoPriority: Self.hogPriority) {
                let end = clock.now().nanoseconds + Self.hogLength
                while clock.now().nanoseconds < end {}
                hogEnded.store(clock.now().nanoseconds, ordering: .releasing)
            }
            // Running again, still inside the pass: only a lent priority gets here before the hog ends.
            let inPass = SceneThread.kernelPriority()
            let ended = clock.now().nanoseconds
            let outcome = scheduler.endImmediateGroup(group)
            let after = SceneThread.kernelPriority()
            hog?.join()
            sighting.withLock {
                $0 = Sighting(heldProcessing: outcome == .processedHere && hog != nil, passBegan: began, priorityInPass: inPass, priorityAfter: after,
                              passEnded: ended, hogEnded: hogEnded.load(ordering: .acquiring))
            }
        }
        game.join()

        let seen = sighting.withLock { $0 }
        #expect(seen.heldProcessing)
        // The scene as set: the game's pass began well before the deadline.
        #expect(seen.passBegan < deadline - Self.levelLength / 2)
        #expect(seen.priorityInPass == -1 - Int(scheduler.configuration.realtimePriority))
        #expect(seen.priorityAfter == 20)
        let recorded = output.recorded
        #expect(recorded.map(\.command) == [level, .stop])
        let stop = try #require(recorded.last)
        #expect(stop.deadlineNanoseconds == deadline)
        // The pass ended and the stop went out while the other work still had most of its half
        // second to spin.
        #expect(seen.passEnded < seen.hogEnded - Self.hogLength / 2)
        #expect(stop.nowNanoseconds < seen.hogEnded - Self.hogLength / 2)
        #expect(stop.nowNanoseconds - deadline < 100 * Self.ms, "written \(Double(stop.nowNanoseconds - deadline) / 1e6) ms after its deadline")
    }
}

/// Which processors the calling thread may run on. `sched_setaffinity` is a GNU extension Swift's
/// Glibc module does not declare: looked up by name.
enum Affinity {
    private typealias Call = @convention(c) (pid_t, Int, UnsafeMutableRawPointer) -> Int32

    private static func call(_ name: String) -> Call? {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
        return unsafeBitCast(symbol, to: Call.self)
    }

    static func current() -> cpu_set_t? {
        var set = cpu_set_t()
        guard let get = call("sched_getaffinity") else { return nil }
        return get(0, MemoryLayout<cpu_set_t>.size, &set) == 0 ? set : nil
    }

    static func set(processors: [Int]) -> Bool {
        var set = cpu_set_t()
        withUnsafeMutableBytes(of: &set) { bytes in
            for processor in processors { bytes[processor / 8] |= UInt8(1 << (processor % 8)) }
        }
        return restore(set)
    }

    static func restore(_ set: cpu_set_t) -> Bool {
        var set = set
        guard let apply = call("sched_setaffinity") else { return false }
        return apply(0, MemoryLayout<cpu_set_t>.size, &set) == 0
    }
}

/// A plain thread of the scene: the game's (normal priority) or other work (`SCHED_FIFO`).
final class SceneThread: @unchecked Sendable {
    private let thread: pthread_t

    private init(_ thread: pthread_t) { self.thread = thread }

    static func start(fifoPriority: Int32?, _ body: @escaping @Sendable () -> Void) throws -> SceneThread {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setinheritsched(&attributes, Int32(PTHREAD_EXPLICIT_SCHED))
        var parameter = sched_param(sched_priority: fifoPriority ?? 0)
        pthread_attr_setschedpolicy(&attributes, fifoPriority == nil ? SCHED_OTHER : SCHED_FIFO)
        pthread_attr_setschedparam(&attributes, &parameter)
        let work = Unmanaged.passRetained(SceneWork(body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, &attributes, { context in
            Unmanaged<SceneWork>.fromOpaque(context!).takeRetainedValue().body()
            return nil
        }, work)
        guard result == 0 else {
            Unmanaged<SceneWork>.fromOpaque(work).release()
            throw Errno(rawValue: result)
        }
        return SceneThread(thread)
    }

    func join() { pthread_join(thread, nil) }

    /// The calling thread's kernel priority: field 18 of `/proc/thread-self/stat` (−1 on error).
    static func kernelPriority() -> Int {
        let descriptor = open("/proc/thread-self/stat", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return -1 }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = read(descriptor, &buffer, buffer.count)
        guard count > 0, let nameEnd = buffer[..<count].lastIndex(of: UInt8(ascii: ")")) else { return -1 }
        // After the name: field 3 (the state) onwards.
        let fields = buffer[(nameEnd + 2)..<count].split(separator: UInt8(ascii: " "))
        guard fields.count > 15 else { return -1 }
        return Int(String(decoding: fields[15], as: UTF8.self)) ?? -1
    }
}

private final class SceneWork {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}
