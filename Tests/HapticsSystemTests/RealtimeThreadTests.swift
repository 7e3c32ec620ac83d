import Glibc
import HapticsSystem
import Synchronization
import Testing

/// The one realtime thread type: configured before `start` returns, runs its body, joins.
@Suite("RealtimeThread")
struct RealtimeThreadTypeTests {
    @Test func startReturnsAConfiguredThreadThatRunsItsBodyUntilJoined() throws {
        final class Probe: Sendable {
            let ran = Atomic<Bool>(false)
            let name = OrderedMutex<String>("")
        }
        let probe = Probe()
        let thread = try RealtimeThread.start(RealtimeThread.Configuration(name: "haptics-test", priority: 10)) {
            // The kernel's view of the thread's name.
            var buffer = [UInt8](repeating: 0, count: 32)
            let descriptor = open("/proc/thread-self/comm", O_RDONLY)
            let count = read(descriptor, &buffer, buffer.count)
            close(descriptor)
            probe.name.withLock { $0 = String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self) }
            probe.ran.store(true, ordering: .releasing)
        }
        thread.join()
        let didRun = probe.ran.load(ordering: .acquiring)
        #expect(didRun)
        #expect(probe.name.withLock { $0 } == "haptics-test\n")
        #expect(thread.grant.timerSlack == .nanoseconds(1))
        // Granted or refused (EPERM without CAP_SYS_NICE), the answer is recorded either way.
        #expect(thread.grant.hasRealtimePriority == (thread.grant.priorityRefusal == nil))
        thread.join()  // Idempotent.
    }

    @Test func withoutAPriorityNothingIsAskedOrRefused() throws {
        let thread = try RealtimeThread.start(RealtimeThread.Configuration(name: "haptics-plain")) {}
        thread.join()
        #expect(thread.grant.timerSlack == .nanoseconds(1) && thread.grant.priority == .normal)
        #expect(thread.grant.threadID > 0 && thread.grant.threadID != getpid())
    }
}
