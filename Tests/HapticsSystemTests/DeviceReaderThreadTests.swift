import Glibc
import HapticsSystem
import HapticsTestSupport
import Synchronization
import Testing

@Suite("Device reader thread")
struct DeviceReaderThreadTests {
    @Test("a reader with an interval ticks on its own and still reads, and nothing runs after stop")
    func ticksAndReads() throws {
        var ends: [CInt] = [-1, -1]
        #expect(pipe(&ends) == 0)
        let device = FileDescriptor(rawValue: ends[0])
        defer { close(ends[0]); close(ends[1]) }
        let ticks = Atomic<Int>(0)
        let reads = Atomic<Int>(0)
        let reader = try _DeviceReaderThread(
            name: "test-reader", device: device, every: .milliseconds(2),
            tick: { ticks.add(1, ordering: .relaxed) }
        ) {
            var byte: UInt8 = 0
            if read(ends[0], &byte, 1) == 1 { reads.add(1, ordering: .relaxed) }
        }
        #expect(waitUntil { ticks.load(ordering: .relaxed) >= 5 })
        var byte: UInt8 = 1
        #expect(write(ends[1], &byte, 1) == 1)
        #expect(waitUntil { reads.load(ordering: .relaxed) == 1 })
        reader.stop()
        let stopped = ticks.load(ordering: .relaxed)
        usleep(20_000)
        #expect(ticks.load(ordering: .relaxed) == stopped)
    }

    @Test("a reader's thread is named when the reader is made")
    func startedWhenMade() throws {
        var ends: [CInt] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        let reader = try _DeviceReaderThread(name: "started-reader", device: FileDescriptor(rawValue: ends[0])) {}
        defer { reader.stop() }
        #expect(threadNames().contains("started-reader"))
    }

    @Test("a reader without an interval only reads")
    func readsOnly() throws {
        var ends: [CInt] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        let reads = Atomic<Int>(0)
        let reader = try _DeviceReaderThread(name: "test-reader", device: FileDescriptor(rawValue: ends[0])) {
            var byte: UInt8 = 0
            if read(ends[0], &byte, 1) == 1 { reads.add(1, ordering: .relaxed) }
        }
        var bytes: [UInt8] = [1, 2, 3]
        #expect(write(ends[1], &bytes, 3) == 3)
        #expect(waitUntil { reads.load(ordering: .relaxed) == 3 })
        reader.stop()
    }
}
