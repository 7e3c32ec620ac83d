import HapticsRendering
import HapticsScheduler
import Testing
@testable import HapticsDevices
import HapticsSystem

@Suite struct SimulatedMotorTimelineTests {
    let ms: Int64 = 1_000_000

    func levels(strong: Double = 0, weak: Double = 0, magnitude: Double = 0, period: Int = 0,
                waveform: PeriodicWaveform? = nil, level: Double = 0) -> MotorTimeline.Levels {
        MotorTimeline.Levels(strong: strong, weak: weak, magnitude: magnitude, periodMilliseconds: period,
                             waveform: waveform, level: level)
    }

    @Test func programBecomesPiecewiseConstantLevels() {
        let program = Program(
            profileName: "test-rumble",
            commands: [
                TimedCommand(offsetNanoseconds: 0, intensity: 1, sharpness: 0, command: .rumble(strong: 0xFFFF, weak: 0)),
                TimedCommand(offsetNanoseconds: 30 * ms, intensity: 0.5, sharpness: 1, command: .rumble(strong: 0, weak: 0x8000)),
                TimedCommand(offsetNanoseconds: 50 * ms, intensity: 0, sharpness: 0, command: .stop),
            ],
            durationNanoseconds: 60_000_000,
            leadTimeNanoseconds: 0
        )
        let timeline = MotorTimeline(program: program)
        #expect(timeline.start == .zero)
        #expect(timeline.end == .milliseconds(60))
        #expect(timeline.motors == [.strong, .weak])
        #expect(timeline.steps == [
            MotorTimeline.Step(time: .zero, levels: levels(strong: 1)),
            MotorTimeline.Step(time: .milliseconds(30), levels: levels(weak: 32768.0 / 65535.0)),
            MotorTimeline.Step(time: .milliseconds(50), levels: .silent),
        ])
        #expect(timeline.levels(at: .milliseconds(30) - .nanoseconds(1)) == levels(strong: 1))
        #expect(timeline.levels(at: .milliseconds(30)) == levels(weak: 32768.0 / 65535.0))
        #expect(timeline.levels(at: .milliseconds(59)) == .silent)
        #expect(timeline.peak(of: .strong) == 1)
        #expect(timeline.peak(of: .weak) == 32768.0 / 65535.0)
        #expect(timeline.periodRange == nil)
    }

    @Test func silentBeforeTheFirstCommandLastOfTiesWinsAndRepeatsMerge() {
        let timeline = MotorTimeline(commands: [
            TimedCommand(offsetNanoseconds: 20 * ms, intensity: 1, sharpness: 0, command: .constant(level: 0x7FFF)),
            TimedCommand(offsetNanoseconds: 10 * ms, intensity: 1, sharpness: 0, command: .constant(level: 100)),
            TimedCommand(offsetNanoseconds: 10 * ms, intensity: 1, sharpness: 0, command: .constant(level: -0x7FFF)),
            TimedCommand(offsetNanoseconds: 15 * ms, intensity: 1, sharpness: 0, command: .constant(level: -0x7FFF)),
            TimedCommand(offsetNanoseconds: 25 * ms, intensity: 0, sharpness: 0, command: .stop),
        ])
        #expect(timeline.end == .milliseconds(25))
        #expect(timeline.motors == [.level])
        #expect(timeline.steps == [
            MotorTimeline.Step(time: .zero, levels: .silent),
            MotorTimeline.Step(time: .milliseconds(10), levels: levels(level: -1)),
            MotorTimeline.Step(time: .milliseconds(20), levels: levels(level: 1)),
            MotorTimeline.Step(time: .milliseconds(25), levels: .silent),
        ])
        // A constant force counts by its size for plots and sound.
        #expect(timeline.levels(at: .milliseconds(12)).value(of: .level) == 1)
    }

    @Test func periodicLevelsKeepPeriodAndWaveformAndClampTheMostNegativeMagnitude() {
        let timeline = MotorTimeline(commands: [
            TimedCommand(offsetNanoseconds: 0, intensity: 1, sharpness: 0,
                         command: .periodic(waveform: .square, periodMilliseconds: 40, magnitude: Int16.min)),
            TimedCommand(offsetNanoseconds: 5 * ms, intensity: 1, sharpness: 0,
                         command: .periodic(waveform: .sine, periodMilliseconds: 10, magnitude: 0x2000)),
            TimedCommand(offsetNanoseconds: 8 * ms, intensity: 1, sharpness: 0,
                         command: .periodic(waveform: .sine, periodMilliseconds: 90, magnitude: 0)),
        ], end: .milliseconds(12), actuator: .periodic(minimumPeriodMilliseconds: 5, maximumPeriodMilliseconds: 100))
        #expect(timeline.end == .milliseconds(12))
        #expect(timeline.motors == [.magnitude])
        #expect(timeline.steps.map(\.levels) == [
            levels(magnitude: 1, period: 40, waveform: .square),
            levels(magnitude: 8192.0 / 32767.0, period: 10, waveform: .sine),
            levels(magnitude: 0, period: 90, waveform: .sine),
        ])
        // The silent 90 ms effect does not count: nothing plays at that period.
        #expect(timeline.periodRange == 10...40)
    }

    @Test func actuatorMotorsShowEvenWhenOnlyStopsArrive() {
        let timeline = MotorTimeline(commands: [TimedCommand(offsetNanoseconds: 0, intensity: 0, sharpness: 0, command: .stop)],
                                     actuator: .dualRumble)
        #expect(timeline.motors == [.strong, .weak])
        #expect(timeline.steps == [MotorTimeline.Step(time: .zero, levels: .silent)])
        #expect(timeline.end == .zero)
    }

    @Test func recordingOnOneChannelIsTimedFromItsFirstArrival() {
        func at(_ nanoseconds: Int64) -> MonotonicInstant { MonotonicInstant(nanoseconds: nanoseconds) }
        let recording = [
            RecordedCommand(time: at(5_000 * ms), deadline: at(5_000 * ms), channel: ChannelID(rawValue: 1),
                            command: .constant(level: 0x7FFF)),
            RecordedCommand(time: at(5_002 * ms), deadline: at(5_001 * ms), channel: ChannelID(rawValue: 0),
                            command: .rumble(strong: 0xFFFF, weak: 0xFFFF)),
            RecordedCommand(time: at(5_012 * ms), deadline: at(5_011 * ms), channel: ChannelID(rawValue: 0),
                            command: .stop),
        ]
        let timeline = MotorTimeline(recording: recording, channel: ChannelID(rawValue: 0))
        #expect(timeline.motors == [.strong, .weak])
        #expect(timeline.steps == [
            MotorTimeline.Step(time: .zero, levels: levels(strong: 1, weak: 1)),
            MotorTimeline.Step(time: .milliseconds(10), levels: .silent),
        ])
        #expect(timeline.end == .milliseconds(10))

        let fromOrigin = MotorTimeline(recording: recording, origin: at(4_999 * ms))
        #expect(fromOrigin.motors == [.strong, .weak, .level])
        #expect(fromOrigin.steps.map(\.time) == [.zero, .milliseconds(1), .milliseconds(3), .milliseconds(13)])
    }
}
