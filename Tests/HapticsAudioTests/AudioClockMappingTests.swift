import HapticsScheduler
import Testing
@testable import HapticsAudio
import HapticsSystem
import HapticsTestSupport

@Suite struct AudioClockMappingTests {
    @Test func twoReadingsGiveTheRealRateOfTheAppsClock() throws {
        // The app's audio device runs 0.1 % fast: 48 048 frames per monotonic second.
        let clock = ManualClock(start: MonotonicInstant(nanoseconds: 5_000_000_000))
        let first = AudioClockMapping.Reading(frame: 1_000, instant: clock.now())
        clock.advance(by: .seconds(1))
        let second = AudioClockMapping.Reading(frame: 49_048, instant: clock.now())
        let mapping = try AudioClockMapping(first, second)
        #expect(mapping.sampleRate == 48_048)
        #expect(mapping.instant(ofFrame: 1_000) == MonotonicInstant(nanoseconds: 5_000_000_000))
        #expect(mapping.instant(ofFrame: 25_024) == MonotonicInstant(nanoseconds: 5_500_000_000))
        #expect(mapping.instant(ofFrame: 97_096) == MonotonicInstant(nanoseconds: 7_000_000_000))
        #expect(mapping.frame(at: MonotonicInstant(nanoseconds: 5_250_000_000)) == 13_012)
        #expect(mapping.frame(at: mapping.instant(ofFrame: 73_072)) == 73_072)
    }

    @Test func moreReadingsAreFittedByLeastSquares() throws {
        // The middle reading was taken 100 µs late; the fit splits the difference.
        let mapping = try AudioClockMapping(readings: [
            .init(frame: 0, instant: .init(nanoseconds: 10_000_000_000)),
            .init(frame: 48_000, instant: .init(nanoseconds: 11_000_100_000)),
            .init(frame: 96_000, instant: .init(nanoseconds: 12_000_000_000)),
        ])
        #expect(mapping.sampleRate == 48_000)
        #expect(mapping.instant(ofFrame: 0) == MonotonicInstant(nanoseconds: 10_000_033_333))
        #expect(mapping.instant(ofFrame: 96_000) == MonotonicInstant(nanoseconds: 12_000_033_333))
    }

    @Test func degenerateReadingsAreRefused() {
        let reading = AudioClockMapping.Reading(frame: 7, instant: .init(nanoseconds: 1))
        #expect(throws: AudioClockMappingError.tooFewReadings(1)) { try AudioClockMapping(readings: [reading]) }
        #expect(throws: AudioClockMappingError.sameFrame) {
            try AudioClockMapping(reading, .init(frame: 7, instant: .init(nanoseconds: 2)))
        }
        #expect(throws: AudioClockMappingError.clockRunsBackwards) {
            try AudioClockMapping(reading, .init(frame: 6, instant: .init(nanoseconds: 2)))
        }
        #expect(AudioClockMappingError.tooFewReadings(1).description == "an audio clock mapping needs at least 2 readings, got 1")
    }

    @Test func aNominalRateAndOneReadingMakeAMappingToo() {
        let mapping = AudioClockMapping(sampleRate: 48_000, reading: .init(frame: 480, instant: .init(nanoseconds: 0)))
        #expect(mapping.instant(ofFrame: 48_480) == MonotonicInstant(nanoseconds: 1_000_000_000))
    }
}
