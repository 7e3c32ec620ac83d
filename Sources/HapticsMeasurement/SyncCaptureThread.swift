import HapticsAudio
import HapticsSystem
import Synchronization

/// Reads a capture stream on its own thread, period after period, until stopped.
final class SyncCaptureThread: @unchecked Sendable {
    private let capture: ALSACaptureStream
    private let running = Atomic<Bool>(true)
    private let readCount = Atomic<Int>(0)
    private let failure = OrderedMutex<String?>(nil)
    private let stopped = Atomic<Bool>(false)
    private let thread = OrderedMutex<RealtimeThread?>(nil)

    /// Starts reading `capture` on a thread of its own (`haptics-capture`, normal priority).
    init(capture: ALSACaptureStream) throws(SystemCallError) {
        self.capture = capture
        let started = try RealtimeThread.start(RealtimeThread.Configuration(name: "haptics-capture")) { [self] in
            while running.load(ordering: .acquiring) {
                do {
                    try capture.readPeriod()
                    readCount.store(capture.reads, ordering: .releasing)
                } catch {
                    failure.withLock { $0 = "\(error)" }
                    break
                }
            }
        }
        thread.withLock { $0 = started }
    }

    /// Periods read so far.
    var reads: Int { readCount.load(ordering: .acquiring) }

    /// Why reading stopped early, if it did.
    var error: String? { failure.withLock { $0 } }

    /// Ends the thread (after the period it is reading) and waits for it. Idempotent.
    func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        running.store(false, ordering: .releasing)
        thread.withLock { $0 }?.join()
        // The thread's body holds this reader: let it go, so that the stream it reads is freed.
        thread.withLock { $0 = nil }
    }
}
