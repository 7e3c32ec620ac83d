import HapticsAudio
import HapticsRendering
import HapticsTestSupport
import Testing
@testable import HapticsDevices
@testable import HapticsViews

@Suite struct MotorSoundTests {
    let ms: Int64 = 1_000_000

    func periodic(_ period: UInt16, at offset: Int64) -> TimedCommand {
        TimedCommand(offsetNanoseconds: offset, intensity: 1, sharpness: 0,
                     command: .periodic(waveform: .sine, periodMilliseconds: period, magnitude: 0x7FFF))
    }

    @Test func periodicPitchIsOnePerPeriodMovedByOctavesIntoTheAudibleRange() {
        let sound = MotorSound()
        #expect(sound.frequency(periodMilliseconds: 1) == 1_000)
        #expect(sound.frequency(periodMilliseconds: 10) == 100)
        #expect(sound.frequency(periodMilliseconds: 20) == 100)     // 50 Hz, one octave up
        #expect(sound.frequency(periodMilliseconds: 100) == 80)     // 10 Hz, three octaves up
        #expect(sound.frequency(periodMilliseconds: 0) == 210)      // no period: the weak motor's pitch
        #expect(MotorSound(highestFrequency: 600).frequency(periodMilliseconds: 1) == 500)
    }

    @Test func sineFollowsTheLevelWithRampsAtExactSamples() {
        // 1 ms period = 1 000 Hz = 48 samples per cycle at 48 kHz; one motor, so full scale is 0.9.
        let timeline = MotorTimeline(commands: [
            periodic(1, at: 0),
            TimedCommand(offsetNanoseconds: 20 * ms, intensity: 0, sharpness: 0, command: .stop),
        ], end: .milliseconds(20))
        let samples = MotorSound().synthesize(timeline)
        #expect(samples.count == 960 + 240)                 // 20 ms + one 5 ms ramp for the fade-out
        #expect(samples[0] == 0)
        #expect(samples[12] == 1_597)                       // a quarter cycle, 13/240 into the ramp-up
        #expect(samples[492] == 29_490)                     // 10.25 ms: peak, 0.9 × 32 767
        #expect(samples[484] == 14_745)                     // a twelfth of a cycle: sin 30° = 0.5
        #expect(samples[516] == -29_490)                    // three quarters: trough
        #expect(samples[972] == 27_893)                     // 13/240 into the fade-out
        #expect(samples[1_199] == 0)
    }

    @Test func phaseRunsOnAcrossAPitchChange() {
        // At 10.25 ms the phase is a quarter cycle; 500 Hz then needs 24 samples per quarter.
        let timeline = MotorTimeline(commands: [
            periodic(1, at: 0),
            periodic(2, at: 10_250_000),
            TimedCommand(offsetNanoseconds: 20 * ms, intensity: 0, sharpness: 0, command: .stop),
        ])
        let samples = MotorSound().synthesize(timeline)
        #expect(samples[492] == 29_490)
        #expect(samples[516] == 0)
        #expect(samples[540] == -29_490)
    }

    @Test func rumbleMotorsAreSummedWithinHeadroom() {
        let timeline = MotorTimeline(commands: [
            TimedCommand(offsetNanoseconds: 0, intensity: 1, sharpness: 0.5, command: .rumble(strong: 0xFFFF, weak: 0xFFFF)),
            TimedCommand(offsetNanoseconds: 20 * ms, intensity: 0, sharpness: 0, command: .stop),
        ])
        let sound = MotorSound(strongFrequency: 1_000, weakFrequency: 2_000)
        let samples = sound.synthesize(timeline)
        // Two motors: each at most 0.45 of full scale. At sample 486 the strong tone is at 45°, the weak at 90°.
        #expect(samples[486] == 25_172)
        #expect(samples[492] == 14_745)
        #expect(samples.map { Int($0).magnitude }.max()! <= 29_491)
    }

    @Test func wavFileHoldsTheRenderedSamples() throws {
        let timeline = MotorTimeline(commands: [
            TimedCommand(offsetNanoseconds: 0, intensity: 1, sharpness: 0, command: .rumble(strong: 0x8000, weak: 0)),
            TimedCommand(offsetNanoseconds: 3 * ms, intensity: 0, sharpness: 0, command: .stop),
        ])
        let sound = MotorSound()
        let bytes = sound.synthesizeWAV(timeline)
        #expect(bytes.count == 44 + 2 * (144 + 240))
        #expect(Array(bytes[40..<44]) == [0x00, 0x03, 0x00, 0x00])   // data length 768
        let audio = try WAVReader.decode(bytes)
        #expect(audio.sampleRate == 48_000)
        #expect(audio.channelCount == 1)
        #expect(audio.pcm16Samples == sound.synthesize(timeline))
        #expect(audio.frameCount == 384)                            // 8 ms
    }

    @Test func timelineWithoutMotorsIsSilence() {
        let timeline = MotorTimeline(commands: [TimedCommand(offsetNanoseconds: 1 * ms, intensity: 0, sharpness: 0, command: .stop)])
        #expect(MotorSound().synthesize(timeline) == Array(repeating: 0, count: 48 + 240))
    }
}
