import Glibc
import Synchronization
import Testing
import HapticsRendering
@testable import HapticsScheduler
import HapticsSystem
import HapticsTestSupport

/// The word that says who processes is a priority-inheriting futex word: the owner's kernel thread
/// id, 0 when free, the kernel's waiters bit while a thread waits for it. (That the waiter's
/// priority reaches the owner is a kernel test: it needs `SCHED_FIFO` and one processor.)
@Suite("Processing's owner: a thread id the kernel can lend priority to")
struct ProcessingOwnerTests {
    /// `FUTEX_WAITERS`: set by the kernel while a thread waits in `FUTEX_LOCK_PI`.
    static let waitersBit: UInt32 = 0x8000_0000

    /// What the group's thread saw: the word while it owned processing, before and after another
    /// thread began to wait, and the outputs meanwhile.
    struct Sighting: Sendable, Equatable {
        var owner: UInt32 = 0
        var ownerWithWaiter: UInt32 = 0
        var thread: UInt32 = 0
        var writtenWhileOwned = 0
    }

    @Test("a caller's group holds processing under its own thread id; a waiting process() is queued in the kernel and takes it as the group ends")
    func ownerWordAndHandOver() throws {
        let rig = SchedulerRig()
        let player = try rig.player(rumbleProgram([(0, 100, 200)], duration: 10 * ms))
        #expect(rig.scheduler.owner.value == 0)
        #expect(!rig.scheduler.isProcessingTaken)

        let owned = Atomic<Bool>(false)
        let sighting = OrderedMutex(Sighting())
        let passesBefore = rig.scheduler.completedPassCount.load(ordering: .acquiring)
        runConcurrently(2) { index in
            if index == 1 {
                while !owned.load(ordering: .acquiring) { usleep(100) }
                // Blocks in the kernel until the group ends, then runs its own pass.
                rig.scheduler.process()
                return
            }
            let group = rig.scheduler.beginImmediateGroup()
            let owner = rig.scheduler.owner.value
            // Queued outside the group, while it owns processing: the group's pass plays it.
            _ = rig.scheduler.start(player, at: rig.at(rig.nowNanoseconds))
            owned.store(true, ordering: .releasing)
            while rig.scheduler.owner.value & Self.waitersBit == 0 { usleep(100) }
            sighting.withLock {
                $0 = Sighting(owner: group.owner ? owner : 0, ownerWithWaiter: rig.scheduler.owner.value,
                              thread: UInt32(bitPattern: ThreadIdentity.current),
                              writtenWhileOwned: rig.output.recorded.count)
            }
            rig.scheduler.endImmediateGroup(group)
        }
        let seen = sighting.withLock { $0 }
        #expect(seen.owner == seen.thread)
        #expect(seen.ownerWithWaiter == seen.thread | Self.waitersBit)
        #expect(seen.writtenWhileOwned == 0)
        #expect(rig.scheduler.owner.value == 0)
        #expect(rig.output.recorded.map(\.command) == [.rumble(strong: 100, weak: 200)])
        // The group's pass, then the waiter's (handed processing by the kernel as the group let it
        // go, it cannot lose it to the group's thread coming back).
        #expect(rig.scheduler.completedPassCount.load(ordering: .acquiring) == passesBefore + 2)
    }

    @Test("a thread that takes processing while it is free makes no system call and leaves no mark")
    func freeTakeIsOneCompareAndSwap() {
        let rig = SchedulerRig()
        #expect(rig.scheduler.beginProcessing())
        #expect(rig.scheduler.owner.value == UInt32(bitPattern: ThreadIdentity.current))
        #expect(!rig.scheduler.beginProcessing())
        rig.scheduler.endProcessing()
        #expect(rig.scheduler.owner.value == 0)
        rig.scheduler.takeProcessing()
        #expect(rig.scheduler.owner.value == UInt32(bitPattern: ThreadIdentity.current))
        rig.scheduler.endProcessing()
        #expect(rig.scheduler.owner.value == 0)
    }
}
