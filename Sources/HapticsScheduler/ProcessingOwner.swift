import CHapticsSystem
import HapticsSystem

/// Who owns processing: the owner's kernel thread id, 0 when free.
///
/// A priority-inheriting futex word (`CHapticsSystem_ownershipTake`). The realtime thread waiting
/// for a caller's pass lends the caller its priority until the pass ends, and the kernel hands
/// processing to the waiter directly when the owner lets it go: a caller playing back to back
/// cannot take it first again.
struct ProcessingOwner: ~Copyable {
    private let storage: FixedArray<UInt32>
    /// The futex word itself.
    private let word: UnsafeMutablePointer<UInt32>

    init() {
        storage = FixedArray(repeating: 0, count: 1)
        word = storage.base
    }

    /// Takes processing for the calling thread if no other thread has it. Never waits.
    @inline(__always)
    func tryTake() -> Bool {
        CHapticsSystem_ownershipTryTake(word) != 0
    }

    /// Takes processing for the calling thread, blocked — never spinning — while another thread
    /// owns it; the kernel lends the owner this thread's priority meanwhile.
    func take() {
        // Fails only on a kernel without priority-inheriting futexes: look again shortly.
        while CHapticsSystem_ownershipTake(word) != 0 {
            _ = CHapticsSystem_sleepUntil(CHapticsSystem_monotonicNow() + 50_000)
        }
    }

    /// Lets processing go; a thread waiting for it takes it from the kernel.
    @inline(__always)
    func give() {
        CHapticsSystem_ownershipGive(word)
    }

    /// The word now: the owner's kernel thread id (with the kernel's waiters bit, `0x8000_0000`,
    /// while a thread waits for it), 0 when free.
    var value: UInt32 { CHapticsSystem_ownershipWord(word) }
}
