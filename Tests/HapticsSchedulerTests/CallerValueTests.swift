import Glibc
import HapticsRendering
@testable import HapticsScheduler
import HapticsSystem
import HapticsTestSupport
import Testing

/// Levels A and B, then the final stop at 20 ms.
let twoLevels = rumbleProgram([(0, 100, 200), (10 * ms, 300, 400)], duration: 20 * ms)
let levelA = ActuatorCommand.rumble(strong: 100, weak: 200)
let levelB = ActuatorCommand.rumble(strong: 300, weak: 400)
/// How far back a far-past submission takes effect.
let catchUp = SchedulerLimits.maximumCatchUp.nanoseconds

/// The error a throwing call threw, or `nil` when it returned.
func thrown<T>(_ body: () throws(SchedulerError) -> T) -> SchedulerError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}

@Suite("Caller values at the scheduler's boundary")
struct CallerValueTests {
    @Test("rates outside 1/64…64 throw and submit nothing", arguments: [
        Double.nan, .infinity, -.infinity, 0, -0.0, -1, 1e-12, 1e12, 1.0 / 65, 64.000_001, .leastNonzeroMagnitude,
    ])
    func refusedRates(rate: Double) throws {
        let rig = SchedulerRig()
        let player = try rig.player(twoLevels)
        guard case let .invalidRate(refused)? = thrown({ () throws(SchedulerError) in
            try rig.scheduler.setRate(player, rate, at: rig.at(rig.nowNanoseconds))
        }) else {
            Issue.record("rate \(rate) was accepted")
            return
        }
        #expect(refused.bitPattern == rate.bitPattern)
        #expect(rig.scheduler.statistics.submitted == 0)
    }

    @Test("the ends of the rate range play, every offset divided by the rate")
    func rateRangeEnds() throws {
        for (rate, scale) in [(64.0, 1.0 / 64), (1.0 / 64, 64.0)] {
            let rig = SchedulerRig()
            let t0 = rig.nowNanoseconds
            let player = try rig.player(rumbleProgram([(0, 100, 200), (640 * ms, 300, 400)], duration: 1_280 * ms))
            #expect(try rig.scheduler.setRate(player, rate, at: rig.at(t0)))
            rig.scheduler.start(player, at: rig.at(t0))
            rig.runOnDeadlines(until: t0 + 100_000 * ms)
            let step = Int64(640 * Double(ms) * scale)
            #expect(rig.output.recorded.map(\.deadlineNanoseconds) == [t0, t0 + step, t0 + 2 * step])
            #expect(rig.output.recorded.map(\.command) == [levelA, levelB, .stop])
        }
    }

    @Test("parameter values that are not finite throw and submit nothing", arguments: [Double.nan, .infinity, -.infinity])
    func refusedParameterValues(value: Double) throws {
        let rig = SchedulerRig()
        let player = try rig.player(twoLevels)
        for (kind, name) in ["HapticIntensityControl", "HapticSharpnessControl", "AudioVolumeControl"].enumerated() {
            guard case let .invalidParameterValue(refusedID, refused)? = thrown({ () throws(SchedulerError) in
                try rig.scheduler.setParameter(
                    player, kind == 0 ? .hapticIntensityControl : kind == 1 ? .hapticSharpnessControl : .audioVolumeControl,
                    value: value, at: rig.at(rig.nowNanoseconds))
            }) else {
                Issue.record("\(name) \(value) was accepted")
                continue
            }
            #expect(refusedID.rawValue == name)
            #expect(refused.bitPattern == value.bitPattern)
        }
        #expect(rig.scheduler.statistics.submitted == 0)
    }

    /// (sharpness control rather than intensity, value sent, intensity and sharpness re-mapped).
    @Test("finite parameter values of any size are clamped where they are re-mapped", arguments: [
        (false, 1e12, Float(1), Float(0.5)),
        (false, -1e12, 0, 0.5),
        (false, 1e-12, 1e-12, 0.5),
        (false, 0, 0, 0.5),
        (true, 1e12, 1, 1),
        (true, -1e12, 1, 0),
        (true, 1e-12, 1, 0.5),
    ])
    func clampedParameterValues(sharpnessControl: Bool, value: Double, intensity: Float, sharpness: Float) throws {
        let rig = SchedulerRig()
        let t0 = rig.nowNanoseconds
        let player = try rig.player(twoLevels)
        rig.scheduler.start(player, at: rig.at(t0))
        rig.run(to: t0)
        #expect(try rig.scheduler.setParameter(player, sharpnessControl ? .hapticSharpnessControl : .hapticIntensityControl,
                                               value: value, at: rig.at(t0 + 1 * ms)))
        rig.run(to: t0 + 1 * ms)
        #expect(rig.output.recorded.last == Emission(testRumble.command(intensity: intensity, sharpness: sharpness),
                                                     deadlineNanoseconds: t0 + 1 * ms, nowNanoseconds: t0 + 1 * ms))
    }

    @Test("a seek to any offset lands in the program: before 0 is 0, beyond the end is the end", arguments: [
        (Duration.seconds(Int64.max), true), (.nanoseconds(Int64.max), true), (.seconds(1e12), true), (.milliseconds(20), true),
        (.seconds(Int64.min), false), (.nanoseconds(Int64.min), false), (.nanoseconds(-1), false), (.zero, false),
    ])
    func seeks(offset: Duration, toTheEnd: Bool) throws {
        let rig = SchedulerRig()
        let t0 = rig.nowNanoseconds
        let player = try rig.player(twoLevels)
        rig.scheduler.start(player, at: rig.at(t0))
        rig.scheduler.seek(player, to: offset, at: rig.at(t0 + 5 * ms))
        rig.runOnDeadlines(until: t0 + 100 * ms)
        let expected = toTheEnd
            ? [Emission(levelA, deadlineNanoseconds: t0, nowNanoseconds: t0), Emission(.stop, deadlineNanoseconds: t0 + 5 * ms, nowNanoseconds: t0 + 5 * ms)]
            : [Emission(levelA, deadlineNanoseconds: t0, nowNanoseconds: t0), Emission(levelA, deadlineNanoseconds: t0 + 5 * ms, nowNanoseconds: t0 + 5 * ms),
               Emission(levelB, deadlineNanoseconds: t0 + 15 * ms, nowNanoseconds: t0 + 15 * ms), Emission(.stop, deadlineNanoseconds: t0 + 25 * ms, nowNanoseconds: t0 + 25 * ms)]
        #expect(rig.output.recorded == expected)
    }

    @Test("an instant beyond 2⁶² ns waits at 2⁶²; one far in the past plays at once, an hour late at most")
    func extremeInstants() throws {
        let rig = SchedulerRig()
        let t0 = rig.nowNanoseconds
        let player = try rig.player(twoLevels)
        rig.scheduler.start(player, at: MonotonicInstant(nanoseconds: .max))
        #expect(rig.scheduler.process() == SchedulerLimits.instants.upperBound)
        #expect(rig.output.recorded.isEmpty)

        rig.scheduler.start(player, at: MonotonicInstant(nanoseconds: .min))
        #expect(rig.run(to: t0) == SchedulerLimits.instants.upperBound.nanoseconds)
        let past = t0 - catchUp
        #expect(rig.output.take() == [
            Emission(levelA, deadlineNanoseconds: past, nowNanoseconds: t0), Emission(levelB, deadlineNanoseconds: past + 10 * ms, nowNanoseconds: t0),
            Emission(.stop, deadlineNanoseconds: past + 20 * ms, nowNanoseconds: t0),
        ])

        // The realtime arithmetic went on: a start at a plain instant plays on time.
        rig.scheduler.start(player, at: rig.at(t0 + 1 * ms))
        rig.runOnDeadlines(until: t0 + 100 * ms)
        #expect(rig.output.take() == [
            Emission(levelA, deadlineNanoseconds: t0 + 1 * ms, nowNanoseconds: t0 + 1 * ms), Emission(levelB, deadlineNanoseconds: t0 + 11 * ms, nowNanoseconds: t0 + 11 * ms),
            Emission(.stop, deadlineNanoseconds: t0 + 21 * ms, nowNanoseconds: t0 + 21 * ms),
        ])
        #expect(SchedulerLimits.instants == MonotonicInstant(nanoseconds: -(1 << 62)) ... MonotonicInstant(nanoseconds: 1 << 62))
    }

    @Test("a looping player started far in the past resumes in the pass playing now, at any rate", arguments: [1.0, 64])
    func loopFromFarPast(rate: Double) throws {
        let rig = SchedulerRig()
        let t0 = rig.nowNanoseconds
        let player = try rig.player(twoLevels)
        #expect(try rig.scheduler.setRate(player, rate, at: MonotonicInstant(nanoseconds: .min)))
        rig.scheduler.setLoop(player, true, at: MonotonicInstant(nanoseconds: .min))
        rig.scheduler.start(player, at: MonotonicInstant(nanoseconds: .min))
        let half = Int64(10 * Double(ms) / rate)
        // 3 600 s of passes were skipped in O(1): the pass that begins now plays.
        #expect(rig.run(to: t0) == t0 + half)
        let past = t0 - catchUp
        #expect(rig.output.recorded == [
            Emission(levelA, deadlineNanoseconds: past, nowNanoseconds: t0), Emission(levelB, deadlineNanoseconds: past + half, nowNanoseconds: t0),
            Emission(levelA, deadlineNanoseconds: t0, nowNanoseconds: t0),
        ])
    }

    @Test("skipping passes stops at a pending submission, which sees the pass it was meant for")
    func skipStopsAtPendingSubmission() throws {
        let rig = SchedulerRig()
        let t0 = rig.nowNanoseconds
        let player = try rig.player(twoLevels)
        rig.scheduler.setLoop(player, true, at: MonotonicInstant(nanoseconds: .min))
        rig.scheduler.start(player, at: MonotonicInstant(nanoseconds: .min))
        rig.scheduler.setLoop(player, false, at: rig.at(t0 - 30 * ms))
        #expect(rig.run(to: t0) == nil)
        let past = t0 - catchUp
        #expect(rig.output.recorded == [
            Emission(levelA, deadlineNanoseconds: past, nowNanoseconds: t0), Emission(levelB, deadlineNanoseconds: past + 10 * ms, nowNanoseconds: t0),
            Emission(levelA, deadlineNanoseconds: t0 - 40 * ms, nowNanoseconds: t0), Emission(levelB, deadlineNanoseconds: t0 - 30 * ms, nowNanoseconds: t0),
            Emission(.stop, deadlineNanoseconds: t0 - 20 * ms, nowNanoseconds: t0),
        ])
    }

    @Test("a rate change dated before the player's anchor applies from the anchor")
    func rateChangeBeforeTheAnchor() throws {
        let rig = SchedulerRig()
        let t0 = rig.nowNanoseconds
        let player = try rig.player(twoLevels)
        rig.scheduler.start(player, at: rig.at(t0))
        rig.run(to: t0)
        for _ in 0..<1_000 {
            // Alternating late changes used to move the position back each time, without bound.
            #expect(try rig.scheduler.setRate(player, 64, at: rig.at(t0 - 5 * ms)))
            #expect(try rig.scheduler.setRate(player, 1.0 / 64, at: MonotonicInstant(nanoseconds: .min)))
            rig.run(to: t0)
        }
        #expect(try rig.scheduler.setRate(player, 2, at: rig.at(t0 - 5 * ms)))
        rig.runOnDeadlines(until: t0 + 100 * ms)
        #expect(rig.output.recorded == [
            Emission(levelA, deadlineNanoseconds: t0, nowNanoseconds: t0), Emission(levelB, deadlineNanoseconds: t0 + 5 * ms, nowNanoseconds: t0 + 5 * ms),
            Emission(.stop, deadlineNanoseconds: t0 + 10 * ms, nowNanoseconds: t0 + 10 * ms),
        ])
    }

    @Test("programs must keep sorted offsets and a duration within 0…2 h")
    func programBounds() throws {
        let rig = SchedulerRig()
        let limit = SchedulerLimits.maximumProgramLength.nanoseconds
        func program(_ offsets: [Int64], duration: Int64) -> Program {
            Program(profileName: "test-rumble", commands: offsets.map {
                TimedCommand(offsetNanoseconds: $0, intensity: 1, sharpness: 0.5, command: levelA)
            }, durationNanoseconds: duration, leadTimeNanoseconds: 0)
        }
        for offsets in [[-1], [Int64.min], [0, limit + 1], [Int64.max], [0, 10 * ms, 5 * ms]] {
            let index = offsets.count - 1
            #expect(throws: SchedulerError.commandOffsetOutOfRange(index: index, offsetNanoseconds: offsets[index])) {
                try rig.scheduler.load(program(offsets, duration: 0))
            }
        }
        for duration in [-1, Int64.min, limit + 1, Int64.max] {
            #expect(throws: SchedulerError.programDurationOutOfRange(.nanoseconds(duration))) {
                try rig.scheduler.load(program([0], duration: duration))
            }
        }
        _ = try rig.scheduler.load(program([0, limit], duration: limit))
        #expect(SchedulerLimits.maximumProgramLength == .seconds(7_200))
    }

    @Test("a channel beyond maximumChannels throws instead of trapping")
    func tooManyChannels() {
        let rig = SchedulerRig(configuration: SchedulerConfiguration(maximumChannels: 1))
        #expect(throws: SchedulerError.tooManyChannels(maximum: 1)) {
            try rig.scheduler.addChannel(output: RecordingActuator(), profile: testRumble)
        }
        #expect(rig.scheduler.channelTotal == 1)
    }

    @Test("a channel re-maps with its profile clamped into range, as rendering does")
    func channelProfileClamped() throws {
        var wild = testRumble
        wild.magnitudeExponent = .nan
        let rig = SchedulerRig(profile: wild)
        let t0 = rig.nowNanoseconds
        let player = try rig.player(twoLevels)
        rig.scheduler.start(player, at: rig.at(t0))
        #expect(try rig.scheduler.setParameter(player, .hapticIntensityControl, value: 0.5, at: rig.at(t0)))
        rig.run(to: t0)
        #expect(rig.output.recorded.last?.command == testRumble.command(intensity: 0.5, sharpness: 0.5))
    }

    @Test("configurations are clamped into their ranges, and the scheduler reports what it uses")
    func configurations() throws {
        let small = SchedulerConfiguration(queueCapacity: 0, maximumPrograms: 0, maximumPlayers: -5, maximumChannels: 0,
                                           traceCapacity: Int.min, realtimePriority: -3)
        #expect(small.clamped == SchedulerConfiguration(queueCapacity: 1, maximumPrograms: 1, maximumPlayers: 1,
                                                        maximumChannels: 1, traceCapacity: 1, realtimePriority: 1))
        let large = SchedulerConfiguration(queueCapacity: .max, maximumPrograms: .max, maximumPlayers: .max,
                                           maximumChannels: .max, traceCapacity: .max, realtimePriority: .max)
        #expect(large.clamped == SchedulerConfiguration(queueCapacity: 1 << 20, maximumPrograms: 32_767, maximumPlayers: 65_535,
                                                        maximumChannels: 65_535, traceCapacity: 1 << 20, realtimePriority: 99))
        #expect(SchedulerConfiguration.default.clamped == .default)

        let rig = SchedulerRig(configuration: small)
        #expect(rig.scheduler.configuration == small.clamped)
        let t0 = rig.nowNanoseconds
        let player = try rig.player(twoLevels)
        rig.scheduler.start(player, at: rig.at(t0))
        rig.runOnDeadlines(until: t0 + 100 * ms)
        #expect(rig.output.recorded.map(\.command) == [levelA, levelB, .stop])
    }

    @Test("a dropStale lateness below zero counts as zero, and a huge one never drops")
    func staleLimits() throws {
        for (lateness, played) in [(Duration.seconds(-1), [levelA, .stop]), (.seconds(Int64.min), [levelA, .stop]),
                                   (.seconds(Int64.max), [levelA, levelB, .stop])] {
            let rig = SchedulerRig(policy: .dropStale(maximumLateness: lateness))
            let t0 = rig.nowNanoseconds
            let player = try rig.player(twoLevels)
            rig.scheduler.start(player, at: rig.at(t0))
            rig.run(to: t0)
            rig.run(to: t0 + 15 * ms)
            rig.run(to: t0 + 20 * ms)
            #expect(rig.output.recorded.map(\.command) == played)
            #expect(rig.scheduler.statistics.droppedStale == (played.count == 2 ? 1 : 0))
        }
    }

    @Test("new errors describe themselves")
    func descriptions() {
        #expect(SchedulerError.tooManyChannels(maximum: 16).description == "scheduler: all 16 channels are in use")
        #expect(SchedulerError.invalidRate(.nan).description == "scheduler: playback rate nan is outside 1/64…64")
        #expect(SchedulerError.invalidParameterValue(.hapticIntensityControl, .infinity).description
            == "scheduler: HapticIntensityControl value inf is not a finite number")
        #expect(SchedulerError.commandOffsetOutOfRange(index: 2, offsetNanoseconds: -1).description
            == "scheduler: program command 2 at -1 ns is negative, out of order or after 2 h")
        #expect(SchedulerError.programDurationOutOfRange(.seconds(-1)).description
            == "scheduler: program duration -1.0 seconds is negative or longer than 2 h")
    }

    @Test("the realtime thread keeps playing after every odd value a caller can submit")
    func realtimeThreadSurvives() throws {
        let scheduler = Scheduler(clock: SystemMonotonicClock())
        let output = RecordingActuator()
        let channel = try scheduler.addChannel(output: output, profile: testRumble)
        let looping = try scheduler.makePlayer(program: scheduler.load(twoLevels), channel: channel)
        let follower = try scheduler.makePlayer(program: scheduler.load(rumbleProgram([(0, 7, 7)], duration: 2 * ms)), channel: channel)
        try scheduler.startRealtimeThread()
        defer { scheduler.stopRealtimeThread() }
        let far = MonotonicInstant(nanoseconds: .max), past = MonotonicInstant(nanoseconds: .min)
        #expect(try scheduler.setRate(looping, 64, at: past))
        scheduler.setLoop(looping, true, at: past)
        scheduler.start(looping, at: past)
        scheduler.start(follower, at: far)
        #expect(try scheduler.setParameter(looping, .hapticIntensityControl, value: 1e12, at: past))
        #expect(try scheduler.setParameter(looping, .hapticSharpnessControl, value: -1e300, at: far))
        #expect(thrown { () throws(SchedulerError) in try scheduler.setRate(looping, .nan, at: past) } != nil)
        #expect(thrown { () throws(SchedulerError) in try scheduler.setRate(looping, 1e12, at: past) } != nil)
        #expect(thrown { () throws(SchedulerError) in try scheduler.setRate(looping, 1e-12, at: past) } != nil)
        scheduler.seek(looping, to: .seconds(Int64.max), at: past)
        scheduler.seek(looping, to: .seconds(Int64.min), at: scheduler.clock.now())
        #expect(try scheduler.setRate(looping, 1.0 / 64, at: past))
        usleep(5_000)
        let start = scheduler.clock.now().advanced(by: 2 * ms)
        scheduler.start(follower, at: start)
        let played = waitUntil {
            output.recorded.suffix(2).map(\.command) == [.rumble(strong: 7, weak: 7), .stop]
        }
        #expect(played)
        #expect(scheduler.isRealtimeThreadRunning)
        #expect(output.recorded.suffix(2).first?.deadlineNanoseconds == start.nanoseconds)
    }
}
