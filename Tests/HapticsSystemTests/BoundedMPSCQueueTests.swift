@_spi(Realtime) import HapticsSystem
import Testing

@Suite("Bounded MPSC queue")
struct BoundedMPSCQueueTests {
    /// A plain value like the realtime threads' commands: a time and a payload, no references.
    struct Command: BitwiseCopyable {
        var time: Int64
        var payload: UInt32
        static let empty = Command(time: -1, payload: 0)
    }

    func command(_ time: Int64) -> Command {
        Command(time: time, payload: 7)
    }

    @Test func capacityIsRoundedUpToAPowerOfTwo() {
        let capacities = [1, 5, 1024].map { BoundedMPSCQueue<Command>(minimumCapacity: $0, filler: .empty).capacity }
        #expect(capacities == [2, 8, 1024])
    }

    @Test func popsInPushOrderAndRefusesWhenFull() {
        let ring = BoundedMPSCQueue<Command>(minimumCapacity: 4, filler: .empty)
        let accepted = (0..<5).map { ring.push(command(Int64($0))) }
        #expect(accepted == [true, true, true, true, false])
        let published = ring.hasPublishedElement
        #expect(published)
        let first = ring.pop()?.time
        #expect(first == 0)
        let refills = [ring.push(command(5)), ring.push(command(6))]
        #expect(refills == [true, false])
        var times: [Int64] = []
        while let next = ring.pop() { times.append(next.time) }
        #expect(times == [1, 2, 3, 5])
        let drained = !ring.hasPublishedElement
        #expect(drained)
    }

    @Test func keepsOrderOverManyLaps() {
        let ring = BoundedMPSCQueue<Command>(minimumCapacity: 2, filler: .empty)
        var times: [Int64] = []
        for lap in 0..<100 {
            let accepted = ring.push(command(Int64(2 * lap))) && ring.push(command(Int64(2 * lap + 1)))
            #expect(accepted)
            while let next = ring.pop() { times.append(next.time) }
        }
        #expect(times == Array(0..<200))
    }
}
