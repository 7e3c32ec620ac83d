import Testing
import CHapticsSystem
@testable import HapticsScheduler
import HapticsSystem
import HapticsTestSupport

@Suite("Clocks")
struct ClockTests {
    @Test func manualClockMovesOnlyWhenAdvanced() {
        let clock = ManualClock(start: MonotonicInstant(nanoseconds: 5))
        #expect(clock.now() == MonotonicInstant(nanoseconds: 5))
        #expect(clock.now() == MonotonicInstant(nanoseconds: 5))
        clock.advance(by: .nanoseconds(10))
        #expect(clock.now().nanoseconds == 15)
        clock.advance(to: MonotonicInstant(nanoseconds: 100))
        #expect(clock.now().nanoseconds == 100)
    }

    @Test func instantsOrderAndOffset() {
        let instant = MonotonicInstant(nanoseconds: 1_000)
        #expect(instant.advanced(by: 500) == MonotonicInstant(nanoseconds: 1_500))
        #expect(instant.advanced(by: -1_000).nanoseconds == 0)
        #expect(instant < instant.advanced(by: 1))
        #expect(instant.span(to: MonotonicInstant(nanoseconds: 400)) == .nanoseconds(-600))
        #expect(instant + .microseconds(2) == MonotonicInstant(nanoseconds: 3_000))
        #expect(instant - .nanoseconds(1_000) == MonotonicInstant(nanoseconds: 0))
        #expect(MonotonicInstant(nanoseconds: 400) - instant == .nanoseconds(-600))
    }

    @Test func systemClockReadsClockMonotonic() {
        let before = CHapticsSystem_monotonicNow()
        let reading = SystemMonotonicClock().now().nanoseconds
        let after = CHapticsSystem_monotonicNow()
        #expect(before <= reading && reading <= after)
    }

    @Test func absoluteSleepReturnsNoEarlierThanItsDeadline() {
        let deadline = CHapticsSystem_monotonicNow() + 200_000
        #expect(CHapticsSystem_sleepUntil(deadline) == 0)
        #expect(CHapticsSystem_monotonicNow() >= deadline)
    }

    @Test func futexWaitOnAChangedWordReturnsAtOnceAndTimesOutOtherwise() {
        var word: UInt32 = 0
        #expect(CHapticsSystem_futexWaitUntil(&word, 1, CHapticsSystem_monotonicNow() + 1_000_000_000) == 0)
        let deadline = CHapticsSystem_monotonicNow() + 100_000
        #expect(CHapticsSystem_futexWaitUntil(&word, 0, deadline) == 110 /* ETIMEDOUT */)
        #expect(CHapticsSystem_monotonicNow() >= deadline)
        #expect(CHapticsSystem_wakeIfParked(&word) == 0)
        CHapticsSystem_parkBegin(&word)
        #expect(word == 1)
        #expect(CHapticsSystem_wakeIfParked(&word) == 1)
        #expect(word == 0)
    }
}
