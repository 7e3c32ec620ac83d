import HapticsSystem
import Testing

@Suite("Duration in nanoseconds")
struct DurationNanosecondsTests {
    @Test("spans within the Int64 range convert exactly, rounded toward zero")
    func exact() {
        #expect(Duration.zero.nanoseconds == 0)
        #expect(Duration.nanoseconds(5).nanoseconds == 5)
        #expect(Duration.milliseconds(-3).nanoseconds == -3_000_000)
        #expect((Duration.nanoseconds(7) / 2).nanoseconds == 3)
        #expect(Duration.nanoseconds(Int64.max).nanoseconds == Int64.max)
        #expect(Duration.nanoseconds(Int64.min).nanoseconds == Int64.min)
    }

    @Test("spans beyond ±292 years saturate instead of trapping")
    func saturates() {
        #expect(Duration.seconds(Int64.max).nanoseconds == Int64.max)
        #expect(Duration.seconds(Int64.min).nanoseconds == Int64.min)
        #expect(Duration.seconds(9_223_372_037).nanoseconds == Int64.max)
        #expect(Duration.seconds(-9_223_372_037).nanoseconds == Int64.min)
        #expect((Duration.nanoseconds(Int64.max) + .nanoseconds(1)).nanoseconds == Int64.max)
        #expect((Duration.nanoseconds(Int64.min) - .nanoseconds(1)).nanoseconds == Int64.min)
        #expect(Duration.seconds(1e12).nanoseconds == Int64.max)
    }
}
