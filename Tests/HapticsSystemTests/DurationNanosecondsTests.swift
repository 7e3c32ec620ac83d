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

    @Test("spans around ±9.2 s, where 64 bits of attoseconds end, convert as the long way does")
    func aroundTheShortSpans() {
        let edge = Int64.max / 1_000_000_000
        for nanoseconds in [edge - 1, edge, edge + 1, 9_300_000_000, 1, 999_999_999] {
            #expect(Duration.nanoseconds(nanoseconds).nanoseconds == nanoseconds)
            #expect(Duration.nanoseconds(-nanoseconds).nanoseconds == -nanoseconds)
        }
        // Attoseconds below a nanosecond round toward zero, on both sides of the edge (2⁶³ as).
        let high = UInt64(Int64.max)
        for (upper, lower) in [(Int64(0), high), (0, high + 1), (0, high - 999_999_999), (0, 1_999_999_999),
                               (-1, high + 1), (-1, high), (-1, UInt64.max - 1_999_999_998)] {
            let span = Duration(_high: upper, low: lower)
            let (seconds, fraction) = span.components
            #expect(span.nanoseconds == seconds * 1_000_000_000 + fraction / 1_000_000_000)
        }
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
