import Glibc
import HapticsSystem
import HapticsTestSupport
import Synchronization
import Testing

/// The thread behind an engine's housekeeping: it runs when asked, at the instant asked for, and
/// otherwise sleeps without a timer.
@Suite("OnDemandThread")
struct OnDemandThreadTests {
    @Test("its thread is named when it is made")
    func startedWhenMade() throws {
        let thread = try OnDemandThread(name: "started-house") { _ in nil }
        defer { thread.stop() }
        #expect(threadNames().contains("started-house"))
    }

    @Test("runs once at the instant asked for, not before, and then sleeps until asked again")
    func runsAtTheInstantAskedFor() throws {
        let ranAt = OrderedMutex<[MonotonicInstant]>([])
        let thread = try OnDemandThread(name: "haptics-test") { now in
            ranAt.withLock { $0.append(now) }
            return nil
        }
        defer { thread.stop() }
        usleep(50_000)
        #expect(thread.runs == 0)
        let asked = MonotonicInstant.now + .milliseconds(30)
        thread.schedule(at: asked)
        #expect(waitUntil { thread.runs == 1 })
        #expect(ranAt.withLock { $0 }.allSatisfy { $0 >= asked })
        usleep(200_000)
        #expect(thread.runs == 1)
        thread.schedule(at: .now)
        #expect(waitUntil { thread.runs == 2 })
    }

    @Test("the instant work returns keeps it running; nil lets it sleep")
    func workChoosesItsNextRun() throws {
        let count = Atomic<Int>(0)
        let thread = try OnDemandThread(name: "haptics-test") { now in
            count.add(1, ordering: .relaxed).oldValue < 3 ? now + .milliseconds(5) : nil
        }
        defer { thread.stop() }
        thread.schedule(at: .now)
        #expect(waitUntil { thread.runs == 4 })
        usleep(100_000)
        #expect(thread.runs == 4)
    }

    @Test("requests kept apart outlive their thread: one asked while none serves them runs on the next")
    func requestsOutliveTheirThread() throws {
        let requests = RunRequests()
        let first = try OnDemandThread(name: "haptics-test", requests: requests) { _ in nil }
        requests.schedule(at: .now)
        #expect(waitUntil { first.runs == 1 })
        first.stop()
        // Asked between two threads: kept until one serves it.
        requests.schedule(at: .now)
        let second = try OnDemandThread(name: "haptics-test", requests: requests) { _ in nil }
        defer { second.stop() }
        #expect(waitUntil { second.runs == 1 })
        #expect(first.runs == 1)
        usleep(50_000)
        requests.schedule(at: .now + .milliseconds(10))
        #expect(waitUntil { second.runs == 2 })
    }

    @Test("a sooner request wakes a thread that waits for a later one")
    func soonerRequestWakesTheThread() throws {
        let thread = try OnDemandThread(name: "haptics-test") { _ in nil }
        defer { thread.stop() }
        thread.schedule(at: .now + .seconds(3_600))
        usleep(20_000)
        thread.schedule(at: .now)
        #expect(waitUntil(timeout: 2) { thread.runs == 1 })
    }

    @Test("stop from inside work returns without waiting for itself; no run begins after")
    func stopFromInsideWork() throws {
        let holder = OrderedMutex<OnDemandThread?>(nil)
        let thread = try OnDemandThread(name: "haptics-test") { now in
            holder.withLock { $0 }?.stop()
            return now
        }
        holder.withLock { $0 = thread }
        thread.schedule(at: .now)
        #expect(waitUntil { thread.runs == 1 })
        usleep(50_000)
        #expect(thread.runs == 1)
        holder.withLock { $0 = nil }
    }
}
