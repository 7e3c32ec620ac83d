import Testing

/// Keeps the test that loads every core apart from the tests that need the machine's real-time
/// margins, while everything else runs in parallel as usual.
///
/// Swift Testing runs suites side by side. A few tests check what a real-time run leaves behind —
/// `haptics play --audio file.wav` chooses its onset 100 ms ahead and the file's frame 0 is that
/// onset — and fail when the process stalls longer than that; the concurrency stress test, with its
/// eight threads (and under ThreadSanitizer, whose runtime stops every thread now and then), makes
/// such stalls. Those tests take this trait as `.needsRealTimeMargins` (any number together), the
/// stress test as `.loadsEveryCore` (alone).
public struct MachineLoadTrait: TestTrait, SuiteTrait, TestScoping {
    /// Whether the test loads the machine (runs alone) or needs its margins (runs with its kind).
    public let loadsEveryCore: Bool

    /// Runs the test once the machine is its to share, or to load.
    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        await MachineLoad.shared.acquire(exclusive: loadsEveryCore)
        do {
            try await function()
        } catch {
            await MachineLoad.shared.release(exclusive: loadsEveryCore)
            throw error
        }
        await MachineLoad.shared.release(exclusive: loadsEveryCore)
    }
}

extension Trait where Self == MachineLoadTrait {
    /// The test keeps every core busy: it runs while no `.needsRealTimeMargins` test does.
    public static var loadsEveryCore: Self { MachineLoadTrait(loadsEveryCore: true) }
    /// The test fails if the process stalls for more than its real-time margin: it never runs
    /// beside a `.loadsEveryCore` test.
    public static var needsRealTimeMargins: Self { MachineLoadTrait(loadsEveryCore: false) }
}

/// A first-come, first-served shared/exclusive lock for tests, which suspends instead of blocking
/// the threads Swift Testing runs tests on.
actor MachineLoad {
    static let shared = MachineLoad()

    private var sharing = 0
    private var exclusive = false
    private var waiting: [(exclusive: Bool, resume: CheckedContinuation<Void, Never>)] = []

    func acquire(exclusive wantsExclusive: Bool) async {
        if waiting.isEmpty, canEnter(exclusive: wantsExclusive) {
            enter(exclusive: wantsExclusive)
            return
        }
        await withCheckedContinuation { waiting.append((wantsExclusive, $0)) }
    }

    func release(exclusive wasExclusive: Bool) {
        if wasExclusive { exclusive = false } else { sharing -= 1 }
        // Wake in arrival order, as many as may enter together.
        while let next = waiting.first, canEnter(exclusive: next.exclusive) {
            waiting.removeFirst()
            enter(exclusive: next.exclusive)
            next.resume.resume()
        }
    }

    private func canEnter(exclusive wantsExclusive: Bool) -> Bool {
        wantsExclusive ? !exclusive && sharing == 0 : !exclusive
    }

    private func enter(exclusive wantsExclusive: Bool) {
        if wantsExclusive { exclusive = true } else { sharing += 1 }
    }
}
