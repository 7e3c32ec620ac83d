import Testing
import HapticsPatterns
import HapticsRendering
@testable import HapticsScheduler
import HapticsSystem
import HapticsTestSupport

@Suite("Player lifecycle: pause, resume, progress and endings")
struct LifecycleTests {
    let program = rumbleProgram([(0, 100, 200), (10 * ms, 300, 400)], duration: 20 * ms)

    func endings(_ rig: SchedulerRig) -> [PlayerEnding] {
        var endings: [PlayerEnding] = []
        rig.scheduler.drainEndings(into: &endings)
        return endings
    }

    @Test func pauseSilencesAtOnceAndResumeContinuesInPhase() throws {
        let rig = SchedulerRig()
        let t0 = rig.nowNanoseconds
        let player = try rig.player(program)
        rig.scheduler.start(player, at: rig.at(t0), tag: 7)
        rig.scheduler.pause(player, at: rig.at(t0 + 5 * ms))
        rig.scheduler.resume(player, at: rig.at(t0 + 50 * ms))
        rig.runOnDeadlines(until: t0 + 20 * ms)
        rig.run(to: t0 + 30 * ms)
        #expect(rig.scheduler.progress(of: player) == PlayerProgress(state: .paused, position: .milliseconds(5), rate: 1))
        #expect(endings(rig).isEmpty)
        rig.runOnDeadlines(until: t0 + 200 * ms)
        #expect(rig.output.recorded == [
            Emission(.rumble(strong: 100, weak: 200), deadlineNanoseconds: t0, nowNanoseconds: t0),
            Emission(.stop, deadlineNanoseconds: t0 + 5 * ms, nowNanoseconds: t0 + 5 * ms),
            Emission(.rumble(strong: 100, weak: 200), deadlineNanoseconds: t0 + 50 * ms, nowNanoseconds: t0 + 50 * ms),
            Emission(.rumble(strong: 300, weak: 400), deadlineNanoseconds: t0 + 55 * ms, nowNanoseconds: t0 + 55 * ms),
            Emission(.stop, deadlineNanoseconds: t0 + 65 * ms, nowNanoseconds: t0 + 65 * ms),
        ])
        #expect(endings(rig) == [PlayerEnding(player: player, tag: 7, reason: .finished, time: rig.at(t0 + 65 * ms))])
    }

    @Test func aPausedPlayerResumesAtItsRateAndAStopEndsItAsStopped() throws {
        let rig = SchedulerRig()
        let t0 = rig.nowNanoseconds
        let player = try rig.player(program)
        _ = try rig.scheduler.setRate(player, 2, at: rig.at(t0))
        rig.scheduler.start(player, at: rig.at(t0), tag: 1)
        rig.scheduler.pause(player, at: rig.at(t0 + 4 * ms))
        rig.scheduler.resume(player, at: rig.at(t0 + 10 * ms))
        rig.scheduler.pause(player, at: rig.at(t0 + 12 * ms))
        rig.scheduler.stop(player, at: rig.at(t0 + 20 * ms))
        rig.runOnDeadlines(until: t0 + 100 * ms)
        #expect(rig.output.recorded == [
            Emission(.rumble(strong: 100, weak: 200), deadlineNanoseconds: t0, nowNanoseconds: t0),
            Emission(.stop, deadlineNanoseconds: t0 + 4 * ms, nowNanoseconds: t0 + 4 * ms),
            // Paused at program time 8 ms; at rate 2 the 10 ms command comes 1 ms after the resume.
            Emission(.rumble(strong: 100, weak: 200), deadlineNanoseconds: t0 + 10 * ms, nowNanoseconds: t0 + 10 * ms),
            Emission(.rumble(strong: 300, weak: 400), deadlineNanoseconds: t0 + 11 * ms, nowNanoseconds: t0 + 11 * ms),
            Emission(.stop, deadlineNanoseconds: t0 + 12 * ms, nowNanoseconds: t0 + 12 * ms),
        ])
        #expect(endings(rig) == [PlayerEnding(player: player, tag: 1, reason: .stopped, time: rig.at(t0 + 20 * ms))])
        #expect(rig.scheduler.progress(of: player) == PlayerProgress(state: .stopped, position: .zero, rate: 2))
    }

    @Test func positionFollowsTheRateAndWrapsWithTheLoop() throws {
        let rig = SchedulerRig()
        let t0 = rig.nowNanoseconds
        let player = try rig.player(rumbleProgram([(0, 100, 200)], duration: 1_000 * ms))
        #expect(rig.scheduler.progress(of: player) == PlayerProgress(state: .stopped, position: .zero, rate: 1))
        rig.scheduler.seek(player, to: .milliseconds(30), at: rig.at(t0))
        rig.run(to: t0)
        #expect(rig.scheduler.progress(of: player) == PlayerProgress(state: .stopped, position: .milliseconds(30), rate: 1))
        rig.scheduler.seek(player, to: .zero, at: rig.at(t0))
        rig.scheduler.start(player, at: rig.at(t0))
        rig.run(to: t0)
        #expect(rig.scheduler.progress(of: player, at: rig.at(t0 + 100 * ms))?.position == .milliseconds(100))
        _ = try rig.scheduler.setRate(player, 2, at: rig.at(t0 + 100 * ms))
        rig.run(to: t0 + 100 * ms)
        #expect(rig.scheduler.progress(of: player, at: rig.at(t0 + 200 * ms)) == PlayerProgress(state: .playing, position: .milliseconds(300), rate: 2))
        _ = try rig.scheduler.setRate(player, 0.25, at: rig.at(t0 + 200 * ms))
        rig.run(to: t0 + 200 * ms)
        #expect(rig.scheduler.progress(of: player, at: rig.at(t0 + 600 * ms))?.position == .milliseconds(400))
        // Beyond the end of a non-looping program the position is its end, until the end is processed.
        #expect(rig.scheduler.progress(of: player, at: rig.at(t0 + 10_000 * ms))?.position == .milliseconds(1_000))
        rig.scheduler.setLoop(player, true, at: rig.at(t0 + 200 * ms))
        rig.run(to: t0 + 200 * ms)
        // 300 ms + 3.2 s × 0.25 = 1.1 s: 100 ms into the second pass.
        #expect(rig.scheduler.progress(of: player, at: rig.at(t0 + 3_400 * ms))?.position == .milliseconds(100))
        rig.scheduler.releasePlayer(player)
        #expect(rig.scheduler.progress(of: player) == nil)
    }

    @Test func everyTaggedStartEndsExactlyOnceFinishedOrStopped() throws {
        let rig = SchedulerRig()
        let t0 = rig.nowNanoseconds
        let player = try rig.player(program)
        let other = try rig.player(program)
        rig.scheduler.start(player, at: rig.at(t0), tag: 1)
        rig.runOnDeadlines(until: t0 + 50 * ms)
        #expect(endings(rig) == [PlayerEnding(player: player, tag: 1, reason: .finished, time: rig.at(t0 + 20 * ms))])
        #expect(endings(rig).isEmpty)

        // A restart ends the start before it; another player replacing it on a `replace` channel stops it.
        rig.scheduler.start(player, at: rig.at(t0 + 50 * ms), tag: 2)
        rig.scheduler.start(player, at: rig.at(t0 + 55 * ms), tag: 3)
        rig.scheduler.start(other, at: rig.at(t0 + 58 * ms), tag: 4)
        rig.scheduler.stopAll(at: rig.at(t0 + 60 * ms))
        // Untagged starts report nothing.
        rig.scheduler.start(player, at: rig.at(t0 + 70 * ms))
        rig.runOnDeadlines(until: t0 + 200 * ms)
        #expect(endings(rig) == [
            PlayerEnding(player: player, tag: 2, reason: .stopped, time: rig.at(t0 + 55 * ms)),
            PlayerEnding(player: player, tag: 3, reason: .stopped, time: rig.at(t0 + 58 * ms)),
            PlayerEnding(player: other, tag: 4, reason: .stopped, time: rig.at(t0 + 60 * ms)),
        ])

        // Paused players end with `stopAll` too, and a seek to the end finishes.
        rig.scheduler.start(player, at: rig.at(t0 + 200 * ms), tag: 5)
        rig.scheduler.pause(player, at: rig.at(t0 + 201 * ms))
        rig.scheduler.stopAll(at: rig.at(t0 + 202 * ms))
        rig.scheduler.start(other, at: rig.at(t0 + 210 * ms), tag: 6)
        rig.scheduler.seek(other, to: .seconds(1), at: rig.at(t0 + 211 * ms))
        rig.runOnDeadlines(until: t0 + 300 * ms)
        #expect(endings(rig) == [
            PlayerEnding(player: player, tag: 5, reason: .stopped, time: rig.at(t0 + 202 * ms)),
            PlayerEnding(player: other, tag: 6, reason: .finished, time: rig.at(t0 + 211 * ms)),
        ])
        #expect(rig.scheduler.statistics.lostEndings == 0)
    }
}

@Suite("Runtime curves are one submission, interpolated by the realtime side")
struct RuntimeCurveTests {
    /// One level held for a minute at intensity 0.8, sharpness 0.5.
    let held = rumbleProgram([(0, 100, 200)], duration: 60_000 * ms, intensity: 0.8, sharpness: 0.5)

    /// 1,000 points 7 ms apart, values on a wave between 0.1 and 0.9.
    let curve = ParameterCurve(id: .hapticIntensityControl, time: 0, controlPoints: (0..<1_000).map { index in
        let phase = Double(index % 40) / 40
        return .init(time: Double(index) * 0.007, value: 0.1 + 0.8 * (phase < 0.5 ? 2 * phase : 2 - 2 * phase))
    })

    @Test func aThousandPointCurveIsOneSubmissionPlayedAtEveryControlTick() throws {
        let rig = SchedulerRig()
        let t0 = rig.nowNanoseconds
        let player = try rig.player(held)
        rig.scheduler.start(player, at: rig.at(t0))
        #expect(try rig.scheduler.setCurve(player, curve, startingAt: rig.at(t0), scale: 0.5))
        #expect(rig.scheduler.statistics.submitted == 2)
        rig.runOnDeadlines(until: t0 + 8_000 * ms)

        // testRumble's control interval is 10 ms: ticks at 0, 10, …, 6 990 ms and the last point, 6 993 ms.
        var ticks = (0...699).map { Int64($0) * 10 * ms }
        ticks.append(6_993 * ms)
        var expected = [Emission(.rumble(strong: 100, weak: 200), deadlineNanoseconds: t0, nowNanoseconds: t0)]
        for tick in ticks {
            let value = curve.value(atOffset: Duration.nanoseconds(tick).patternSeconds) * 0.5
            let level = testRumble.command(intensity: min(max(Float(0.8) * Float(max(0, value)), 0), 1), sharpness: 0.5)
            expected.append(Emission(level, deadlineNanoseconds: t0 + tick, nowNanoseconds: t0 + tick))
        }
        #expect(rig.output.recorded.count == 702)
        #expect(rig.output.recorded == expected)
        #expect(rig.scheduler.statistics.submitted == 2)
        #expect(rig.scheduler.statistics.applied == 2)
        #expect(rig.scheduler.curves.pointee.heldCount == 0)
    }

    @Test func aCurveOnAStoppedPlayerSetsTheParameterItStartsWith() throws {
        let rig = SchedulerRig()
        let t0 = rig.nowNanoseconds
        let player = try rig.player(held)
        let ramp = ParameterCurve(id: .hapticIntensityControl, time: 0, controlPoints: [.init(time: 0, value: 1), .init(time: 0.02, value: 0.5)])
        try rig.scheduler.setCurve(player, ramp, startingAt: rig.at(t0))
        rig.scheduler.start(player, at: rig.at(t0 + 15 * ms))
        rig.runOnDeadlines(until: t0 + 100 * ms)
        #expect(rig.output.recorded == [
            Emission(testRumble.command(intensity: 0.8 * 0.75, sharpness: 0.5), deadlineNanoseconds: t0 + 15 * ms, nowNanoseconds: t0 + 15 * ms),
            Emission(testRumble.command(intensity: 0.8 * 0.5, sharpness: 0.5), deadlineNanoseconds: t0 + 20 * ms, nowNanoseconds: t0 + 20 * ms),
        ])
    }

    @Test func aNewCurveReplacesTheOneOfItsParameterAndReleasedPlayersGiveTheirsBack() throws {
        let rig = SchedulerRig()
        let t0 = rig.nowNanoseconds
        let player = try rig.player(held)
        let long = ParameterCurve(id: .hapticSharpnessControl, time: 0, controlPoints: [.init(time: 0, value: 0), .init(time: 10, value: 0.5)])
        let flat = ParameterCurve(id: .hapticSharpnessControl, time: 0, controlPoints: [.init(time: 0, value: 0.25), .init(time: 0.01, value: 0.25)])
        rig.scheduler.start(player, at: rig.at(t0))
        try rig.scheduler.setCurve(player, long, startingAt: rig.at(t0))
        try rig.scheduler.setCurve(player, flat, startingAt: rig.at(t0 + 20 * ms))
        rig.runOnDeadlines(until: t0 + 100 * ms)
        let shifted = testRumble.command(intensity: 0.8, sharpness: 0.75)
        #expect(rig.output.recorded.suffix(2) == [
            Emission(shifted, deadlineNanoseconds: t0 + 20 * ms, nowNanoseconds: t0 + 20 * ms),
            Emission(shifted, deadlineNanoseconds: t0 + 30 * ms, nowNanoseconds: t0 + 30 * ms),
        ])
        #expect(rig.output.recorded.count == 5)
        #expect(rig.scheduler.curves.pointee.heldCount == 0)

        try rig.scheduler.setCurve(player, long, startingAt: rig.at(t0 + 100 * ms))
        rig.run(to: t0 + 100 * ms)
        #expect(rig.scheduler.curves.pointee.heldCount == 1)
        rig.scheduler.releasePlayer(player)
        rig.runOnDeadlines(until: t0 + 200 * ms)
        #expect(rig.scheduler.curves.pointee.heldCount == 0)
    }

    @Test func aFullQueueOrFullCurveSpaceReturnsFalseAndIsCounted() throws {
        let rig = SchedulerRig(configuration: SchedulerConfiguration(queueCapacity: 2, maximumCurves: 1))
        let t0 = rig.nowNanoseconds
        let player = try rig.player(held)
        let ramp = ParameterCurve(id: .hapticIntensityControl, time: 0, controlPoints: [.init(time: 0, value: 1), .init(time: 1, value: 0)])
        #expect(try rig.scheduler.setCurve(player, ramp, startingAt: rig.at(t0)))
        #expect(try rig.scheduler.setCurve(player, ramp, startingAt: rig.at(t0)) == false)
        #expect(rig.scheduler.statistics.droppedCurves == 1)
        #expect(rig.scheduler.statistics.dropped == 0)
        rig.run(to: t0 + 2_000 * ms)
        #expect(rig.scheduler.curves.pointee.heldCount == 0)

        rig.scheduler.start(player, at: rig.at(t0 + 3_000 * ms))
        rig.scheduler.stop(player, at: rig.at(t0 + 3_000 * ms))
        #expect(try rig.scheduler.setCurve(player, ramp, startingAt: rig.at(t0)) == false)
        #expect(rig.scheduler.statistics.dropped == 1)
        #expect(rig.scheduler.statistics.droppedCurves == 1)
        #expect(rig.scheduler.curves.pointee.heldCount == 0)
    }

    @Test func curvesOutsideWhatTheRealtimeSideHoldsAreRefusedWithLocatedErrors() throws {
        let rig = SchedulerRig(configuration: SchedulerConfiguration(maximumCurvePoints: 4))
        let player = try rig.player(held)
        func curve(_ points: [(Double, Double)], time: Double = 0) -> ParameterCurve {
            ParameterCurve(id: .hapticIntensityControl, time: time, controlPoints: points.map { .init(time: $0.0, value: $0.1) })
        }
        let cases: [(ParameterCurve, SchedulerError)] = [
            (curve([(0, 1), (1, 1), (2, 1), (3, 1), (4, 1)]), .curveTooLong(points: 5, maximum: 4)),
            (curve([(0, 1), (2, 1), (1, 1)]), .curveOutOfOrder(index: 2)),
            (curve([(0, 1)], time: 7_201), .curveTimeOutOfRange(seconds: 7_201)),
            (curve([(0, 1), (-1, 1)]), .curveTimeOutOfRange(seconds: -1)),
            (curve([(0, 1), (1, .infinity)]), .invalidParameterValue(.hapticIntensityControl, .infinity)),
            (curve([(0, -1e308), (1, 1e308)]), .invalidParameterValue(.hapticIntensityControl, .infinity)),
        ]
        for (refused, error) in cases {
            #expect(throws: error) { try rig.scheduler.setCurve(player, refused, startingAt: rig.at(rig.nowNanoseconds)) }
        }
        #expect(throws: SchedulerError.invalidParameterValue(.hapticIntensityControl, .infinity)) {
            try rig.scheduler.setCurve(player, curve([(0, 1)]), startingAt: rig.at(rig.nowNanoseconds), scale: .infinity)
        }
        #expect(rig.scheduler.statistics.submitted == 0)
        #expect(rig.scheduler.curves.pointee.heldCount == 0)
        #expect(SchedulerError.curveTooLong(points: 5, maximum: 4).description
            == "scheduler: a curve of 5 control points is longer than the 4 a curve may have")
        #expect(SchedulerError.curveOutOfOrder(index: 2).description
            == "scheduler: curve control point 2 comes before the point ahead of it")
        #expect(SchedulerError.curveTimeOutOfRange(seconds: -1).description
            == "scheduler: curve time -1.0 s is negative, not finite or after 2 h")
        // Audio parameters and empty curves are accepted and submit nothing.
        #expect(try rig.scheduler.setCurve(player, ParameterCurve(id: .audioVolumeControl, time: 0, controlPoints: [.init(time: 0, value: 1)]), startingAt: rig.at(rig.nowNanoseconds)))
        #expect(try rig.scheduler.setCurve(player, curve([]), startingAt: rig.at(rig.nowNanoseconds)))
        #expect(rig.scheduler.statistics.submitted == 0)
    }
}
