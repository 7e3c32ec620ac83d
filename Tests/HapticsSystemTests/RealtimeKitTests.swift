import Glibc
import HapticsSystem
import HapticsTestSupport
import Synchronization
import Testing

/// A bus of the tests' own for every test of the suite, or why there is none.
private let bus = Result { try PrivateBus() }
private let busIsRunning = (try? bus.get()) != nil

/// A realtime thread refused `SCHED_FIFO` asks rtkit: the calls it makes on a real bus, to a fake
/// rtkit that does what rtkit does, and what the thread reports.
@Suite("Realtime priority through rtkit", .serialized, .enabled(if: busIsRunning, "dbus-daemon cannot be started (Tools/install-deps installs it)"))
struct RealtimeKitTests {
    /// Starts a thread asking `SCHED_FIFO` 50 on a thread that may not set it, and returns its grant
    /// and whether its body saw itself run with `SCHED_FIFO`.
    private func grantOfUnprivilegedThread(asking bus: RealtimeKit.Bus?) throws -> (RealtimeThread.Grant, Bool) {
        let result = OrderedMutex<(RealtimeThread.Grant, Bool)?>(nil)
        try onUnprivilegedThread {
            let policy = Atomic<Int32>(-1)
            let configuration = RealtimeThread.Configuration(name: "haptics-rtkit", priority: 50, realtimeKit: bus)
            guard let thread = try? RealtimeThread.start(configuration, body: {
                policy.store(sched_getscheduler(0) & ~Int32(0x4000_0000), ordering: .relaxed)
            }) else { return }
            thread.join()
            result.withLock { $0 = (thread.grant, policy.load(ordering: .relaxed) == SCHED_FIFO) }
        }
        return try #require(result.withLock { $0 })
    }

    private static func hardRunTimeLimit() -> UInt64 {
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(__RLIMIT_RTTIME.rawValue), &limit)
        return UInt64(limit.rlim_max)
    }

    @Test(.enabled(if: canDropPrivileges, "the fake rtkit sets SCHED_FIFO on another thread, which takes root"))
    func aThreadRefusedSchedFIFOGetsItFromRtkitAtRtkitsMaximum() throws {
        let bus = try bus.get()
        let rtkit = try FakeRealtimeKit(on: bus, behaviour: .init(maximumPriority: 20, runTimeLimit: 60_000_000))
        defer { rtkit.stop() }
        let expectedLimit = min(Self.hardRunTimeLimit(), 60_000_000)

        let (grant, sawFIFO) = try grantOfUnprivilegedThread(asking: .address(bus.address))

        #expect(grant.priority == .fifoThroughRealtimeKit(20, refusal: .notPermitted))
        #expect(grant.priority.description == "SCHED_FIFO 20 through rtkit")
        #expect(grant.hasRealtimePriority && grant.priorityRefusal == nil)
        #expect(sawFIFO)
        // The thread asked for itself, at rtkit's maximum, after lowering RLIMIT_RTTIME to rtkit's limit.
        #expect(rtkit.receivedCalls == [FakeRealtimeKit.Call(
            thread: UInt64(grant.threadID), priority: 20, runTimeLimit: expectedLimit, threadName: "haptics-rtkit")])
        #expect(grant.threadID != getpid())
    }

    @Test func rtkitsRefusalLeavesTheThreadAtNormalPriorityAndSaysWhy() throws {
        let bus = try bus.get()
        let rtkit = try FakeRealtimeKit(on: bus, behaviour: .init(refusal: ("org.freedesktop.DBus.Error.AccessDenied", "Operation not permitted")))
        defer { rtkit.stop() }

        let (grant, sawFIFO) = try grantOfUnprivilegedThread(asking: .address(bus.address))

        #expect(grant.priority == .refused(.notPermitted, realtimeKit: .refused(name: "org.freedesktop.DBus.Error.AccessDenied", message: "Operation not permitted")))
        #expect(grant.priority.description
            == "normal priority: SCHED_FIFO refused (EPERM (Operation not permitted)); rtkit refused: org.freedesktop.DBus.Error.AccessDenied: Operation not permitted")
        #expect(!sawFIFO && !grant.hasRealtimePriority && grant.priorityRefusal == .notPermitted)
        #expect(rtkit.receivedCalls.map(\.thread) == [UInt64(grant.threadID)])
        #expect(rtkit.receivedCalls.map(\.priority) == [20])
    }

    @Test func aBusWithoutRtkitIsReportedAsRtkitMissing() throws {
        let bus = try bus.get()
        let (grant, _) = try grantOfUnprivilegedThread(asking: .address(bus.address))
        #expect(grant.priority == .refused(.notPermitted, realtimeKit: .serviceMissing(
            message: "org.freedesktop.DBus.Error.ServiceUnknown: The name org.freedesktop.RealtimeKit1 was not provided by any .service files")))
    }

    @Test func noBusAtTheAddressIsReportedWithTheAddress() throws {
        let (grant, _) = try grantOfUnprivilegedThread(asking: .address("unix:path=/nonexistent/haptics-bus"))
        #expect(grant.priority == .refused(.notPermitted, realtimeKit: .busUnavailable(
            address: "unix:path=/nonexistent/haptics-bus",
            message: "org.freedesktop.DBus.Error.FileNotFound: Failed to connect to socket /nonexistent/haptics-bus: No such file or directory")))
        #expect(grant.priority.description.hasSuffix("; no D-Bus at unix:path=/nonexistent/haptics-bus (org.freedesktop.DBus.Error.FileNotFound: Failed to connect to socket /nonexistent/haptics-bus: No such file or directory)"))
    }

    @Test func withoutABusToAskTheRefusalStands() throws {
        let (grant, _) = try grantOfUnprivilegedThread(asking: nil)
        #expect(grant.priority == .refused(.notPermitted, realtimeKit: nil))
        #expect(grant.priority.description == "normal priority: SCHED_FIFO refused (EPERM (Operation not permitted))")
    }

    @Test func rtkitsLimitsAreReadFromItsProperties() throws {
        let bus = try bus.get()
        let rtkit = try FakeRealtimeKit(on: bus, behaviour: .init(maximumPriority: 15, runTimeLimit: 150_000))
        defer { rtkit.stop() }
        #expect(try RealtimeKit.limits(on: .address(bus.address)) == RealtimeKit.Limits(maximumPriority: 15, runTimeLimitMicroseconds: 150_000))
        #expect(rtkit.receivedCalls.isEmpty)
    }
}
