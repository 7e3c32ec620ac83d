import Glibc
import HapticsDevices
import HapticsPatterns
import HapticsRendering
import HapticsScheduler
import HapticsSystem
import Testing
@testable import Haptics

/// The error a throwing call threw, or `nil` when it returned.
func thrown<Failure: Error, Result>(_ body: () throws(Failure) -> Result) -> Failure? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}

/// What a fixture's first device received after playing `play` on a fresh engine and running 1 s.
func received(_ play: (EngineFixture) -> Void) -> [(Int64, ActuatorCommand)] {
    let fixture = EngineFixture()
    let origin = fixture.clock.now()
    play(fixture)
    fixture.run(for: 1_000_000_000)
    return fixture.received(since: origin)
}

let farFuture = MonotonicInstant(nanoseconds: .max)
let farPast = MonotonicInstant(nanoseconds: .min)

@Suite("Caller values at the engine's boundary")
struct EngineCallerValueTests {
    @Test("a NaN or infinite impact intensity is refused everywhere, and nothing reaches the device", arguments: [
        Double.nan, .infinity, -.infinity,
    ])
    func refusedIntensities(intensity: Double) {
        let fixture = EngineFixture()
        let generator = ImpactFeedbackGenerator(style: .medium, engine: fixture.engine)
        #expect(fixture.engine.play(.impact(.medium, intensity: intensity)) == .notPlayed(.invalidIntensity))
        #expect(fixture.engine.play(.impact(.medium, intensity: intensity), withSound: true)
            == PlaybackOutcome.WithSound(haptics: .notPlayed(.invalidIntensity), audio: .notPlayed(.invalidIntensity)))
        #expect(fixture.engine.play(.impact(.medium, intensity: intensity), withSound: false)
            == PlaybackOutcome.WithSound(haptics: .notPlayed(.invalidIntensity), audio: .notPlayed(.notRequested)))
        #expect(generator.impactOccurred(intensity: intensity) == .notPlayed(.invalidIntensity))
        #expect(generator.impactOccurred(intensity: intensity, feltAt: fixture.clock.now()) == .notPlayed(.invalidIntensity))
        fixture.run(for: 1_000_000_000)
        #expect(fixture.devices[0].recording().isEmpty)
    }

    @Test("finite impact intensities are clamped to 0…1", arguments: [(1e12, 1.0), (1.5, 1), (-1, 0), (-1e12, 0), (-1e-12, 0)])
    func clampedIntensities(requested: Double, clamped: Double) {
        let refused = received { #expect($0.engine.play(.impact(.medium, intensity: requested)).isScheduled) }
        #expect(same(refused, received { _ = $0.engine.play(.impact(.medium, intensity: clamped)) }))
        let generated = received { #expect(ImpactFeedbackGenerator(style: .medium, engine: $0.engine).impactOccurred(intensity: requested).isScheduled) }
        #expect(same(generated, refused))
    }

    @Test("an onset more than an hour ahead is refused; one in the past moves to the earliest possible")
    func onsets() {
        let fixture = EngineFixture()
        let now = fixture.clock.now()
        let earliest = now + DeviceProfile.genericRumble.riseTime
        let horizon = now + HapticEngine.schedulingHorizon
        #expect(HapticEngine.schedulingHorizon == .seconds(3_600))
        #expect(fixture.engine.play(.selection, feltAt: farFuture) == .notPlayed(.onsetOutOfRange))
        #expect(fixture.engine.play(.selection, feltAt: horizon + .nanoseconds(1)) == .notPlayed(.onsetOutOfRange))
        #expect(fixture.engine.play(.selection, withSoundAudibleAt: farFuture) == .notPlayed(.onsetOutOfRange))
        #expect(fixture.engine.play(.selection, withSound: true, at: farFuture)
            == PlaybackOutcome.WithSound(haptics: .notPlayed(.onsetOutOfRange), audio: .notPlayed(.onsetOutOfRange)))
        #expect(fixture.engine.play(.selection, withSoundStartingNow: .seconds(Int64.max)) == .notPlayed(.onsetOutOfRange))
        #expect(fixture.engine.play(.selection, withSoundStartingNow: .seconds(3_600) + .nanoseconds(1)) == .notPlayed(.onsetOutOfRange))
        #expect(ImpactFeedbackGenerator(engine: fixture.engine).impactOccurred(feltAt: farFuture) == .notPlayed(.onsetOutOfRange))

        #expect(fixture.engine.play(.impact(.light), feltAt: horizon) == .scheduled(feltAt: horizon))
        #expect(fixture.engine.play(.impact(.heavy), withSoundStartingNow: .seconds(3_600)) == .scheduled(feltAt: horizon))
        #expect(fixture.engine.play(.selection, feltAt: farPast) == .scheduled(feltAt: earliest))
        #expect(fixture.engine.play(.notification(.error), withSoundStartingNow: .seconds(Int64.min)) == .scheduled(feltAt: earliest))
        #expect(fixture.engine.play(.notification(.warning), withSoundStartingNow: .nanoseconds(-1)) == .scheduled(feltAt: earliest))
        #expect(ImpactFeedbackGenerator(style: .rigid, engine: fixture.engine).impactOccurred(intensity: 1e-12, feltAt: farPast)
            == .scheduled(feltAt: earliest))
    }

    @Test("the gain clamps to 0…1 and ignores NaN")
    func gain() {
        let fixture = EngineFixture()
        fixture.engine.gain = 0.5
        fixture.engine.gain = .nan
        #expect(fixture.engine.gain == 0.5)
        fixture.engine.gain = .infinity
        #expect(fixture.engine.gain == 1)
        fixture.engine.gain = 1e12
        #expect(fixture.engine.gain == 1)
        fixture.engine.gain = 1e-12
        #expect(fixture.engine.gain == 1e-12)
        fixture.engine.gain = -.infinity
        #expect(fixture.engine.gain == 0)
        #expect(fixture.engine.play(.selection) == .notPlayed(.muted))
        fixture.engine.gain = -1e12
        #expect(fixture.engine.gain == 0)
    }

    @Test("configuration values are clamped: the preparation lifetime, the housekeeping interval, the capacities")
    func configuration() {
        let wild = HapticEngine.Configuration(
            prepareLifetime: .seconds(Int64.max), housekeepingInterval: .zero,
            scheduler: SchedulerConfiguration(queueCapacity: 0, maximumChannels: 0))
        let clamped = wild.clamped
        #expect(clamped.prepareLifetime == .seconds(3_600))
        #expect(clamped.housekeepingInterval == .milliseconds(1))
        #expect(clamped.scheduler == wild.scheduler.clamped)
        #expect(HapticEngine.Configuration(prepareLifetime: .seconds(Int64.min), housekeepingInterval: .seconds(1e12)).clamped.prepareLifetime == .zero)
        #expect(HapticEngine.Configuration(housekeepingInterval: .seconds(1e12)).clamped.housekeepingInterval == .seconds(10))
        #expect(HapticEngine.Configuration(housekeepingInterval: .seconds(-1)).clamped.housekeepingInterval == .milliseconds(1))

        // One channel after clamping: the second output is left out, the first plays.
        let fixture = EngineFixture(profiles: [.genericRumble, .dualSense], configuration: wild)
        #expect(fixture.engine.outputs.map(\.profile) == [.genericRumble])
        let generator = ImpactFeedbackGenerator(engine: fixture.engine)
        generator.prepare()
        fixture.clock.advance(by: .seconds(3_600) - .nanoseconds(1))
        #expect(generator.isPrepared)
        fixture.clock.advance(by: .nanoseconds(1))
        #expect(!generator.isPrepared)
        #expect(generator.impactOccurred().isScheduled)

        let never = EngineFixture(configuration: .init(prepareLifetime: .seconds(-5)))
        let impact = ImpactFeedbackGenerator(engine: never.engine)
        impact.prepare()
        #expect(!impact.isPrepared)
        #expect(impact.impactOccurred().isScheduled)
    }

    @Test("an output whose profile is out of range is refused by addOutput and left out at creation")
    func profiles() throws {
        var slow = DeviceProfile.genericRumble
        slow.riseTime = .seconds(Int64.max)
        var fine = DeviceProfile.genericRumble
        fine.controlInterval = .nanoseconds(1)
        var reversed = DeviceProfile.phoneVibra
        reversed.actuator = .periodic(minimumPeriodMilliseconds: 30, maximumPeriodMilliseconds: 20)
        let fixture = EngineFixture(profiles: [])
        #expect(throws: EngineError.invalidProfile(.riseTimeOutOfRange(.seconds(Int64.max)))) {
            try fixture.engine.addOutput(.simulated(slow))
        }
        #expect(throws: EngineError.invalidProfile(.controlIntervalOutOfRange(.nanoseconds(1)))) {
            try fixture.engine.addOutput(.simulated(fine))
        }
        #expect(throws: EngineError.invalidProfile(.periodRangeInvalid(minimumMilliseconds: 30, maximumMilliseconds: 20))) {
            try fixture.engine.addOutput(.simulated(reversed))
        }
        var curved = DeviceProfile.genericRumble
        curved.magnitudeExponent = .nan
        guard case .invalidProfile(.magnitudeExponentOutOfRange)? = thrown({ () throws(EngineError) in
            try fixture.engine.addOutput(.simulated(curved))
        }) else {
            Issue.record("a NaN exponent was accepted")
            return
        }
        #expect(fixture.engine.outputs.isEmpty)
        try fixture.engine.addOutput(.simulated(.genericRumble))
        #expect(fixture.engine.play(.selection).isScheduled)

        let created = EngineFixture(profiles: [slow, .dualSense, fine])
        #expect(created.engine.outputs.map(\.profile) == [.dualSense])
        #expect(EngineError.invalidProfile(.riseTimeOutOfRange(.seconds(2))).description
            == "device profile: riseTime 2.0 seconds is outside 0…1 s")
    }

    @Test("a pattern built in code must keep its times within 0…3600 s", arguments: [
        (PatternEvent(kind: .hapticTransient, time: 1e12), "events[0].time", 1e12),
        (PatternEvent(kind: .hapticTransient, time: -1), "events[0].time", -1),
        (PatternEvent(kind: .hapticTransient, time: .infinity), "events[0].time", .infinity),
        (PatternEvent(kind: .hapticTransient, time: -.infinity), "events[0].time", -.infinity),
        (PatternEvent(kind: .hapticContinuous, time: 0, duration: .infinity), "events[0].duration", .infinity),
        (PatternEvent(kind: .hapticContinuous, time: 0, duration: -1e-12), "events[0].duration", -1e-12),
        (PatternEvent(kind: .hapticContinuous, time: 3_000, duration: 1_000), "events[0].duration", 4_000),
        (PatternEvent(kind: .audioContinuous, time: 0, duration: 1e12), "events[0].duration", 1e12),
    ])
    func patternTimes(event: PatternEvent, path: String, seconds: Double) {
        let fixture = EngineFixture()
        #expect(throws: EngineError.patternTimeOutOfRange(path: path, seconds: seconds)) {
            try fixture.engine.makePlayer(pattern: Pattern(events: [event]))
        }
    }

    @Test("a pattern's NaN times, parameters and curves out of range are refused, and one ending at the hour plays")
    func patternOtherTimes() throws {
        let fixture = EngineFixture()
        do {
            _ = try fixture.engine.makePlayer(pattern: Pattern(events: [PatternEvent(kind: .hapticTransient, time: .nan)]))
            Issue.record("a NaN time was accepted")
        } catch let EngineError.patternTimeOutOfRange(path, seconds) {
            #expect(path == "events[0].time" && seconds.isNaN)
        }
        #expect(throws: EngineError.patternTimeOutOfRange(path: "parameters[0].time", seconds: 1e12)) {
            try fixture.engine.makePlayer(pattern: Pattern(parameters: [DynamicParameter(id: .hapticIntensityControl, time: 1e12, value: 1)]))
        }
        #expect(throws: EngineError.patternTimeOutOfRange(path: "curves[0].time", seconds: -1)) {
            try fixture.engine.makePlayer(pattern: Pattern(curves: [ParameterCurve(id: .hapticIntensityControl, time: -1, controlPoints: [])]))
        }
        #expect(throws: EngineError.patternTimeOutOfRange(path: "curves[0].controlPoints[1].time", seconds: 3_601)) {
            try fixture.engine.makePlayer(pattern: Pattern(curves: [ParameterCurve(id: .hapticIntensityControl, time: 1, controlPoints: [
                .init(time: 0, value: 1), .init(time: 3_600, value: 0),
            ])]))
        }
        let longest = try fixture.engine.makePlayer(pattern: Pattern(events: [PatternEvent(kind: .hapticTransient, time: 3_600)]))
        #expect(longest.start().isScheduled)
        #expect(HapticEngine.maximumPatternDuration == .seconds(3_600))
        #expect(EngineError.patternTimeOutOfRange(path: "events[0].time", seconds: 1e12).description
            == "pattern: events[0].time is 1000000000000.0 s, outside 0…3600 s")
    }

    @Test("a pattern built in code holds at most four hours of haptic continuous events in all")
    func hapticTime() throws {
        let fixture = EngineFixture()
        let layer = PatternEvent(kind: .hapticContinuous, time: 0, duration: 3_600)
        #expect(throws: EngineError.hapticTimeOverLimit(path: "events[4].duration", seconds: 18_000)) {
            try fixture.engine.makePlayer(pattern: Pattern(events: Array(repeating: layer, count: 5)))
        }
        #expect(EngineError.hapticTimeOverLimit(path: "events[4].duration", seconds: 18_000).description
            == "pattern: at events[4].duration the haptic continuous events add up to 18000.0 s, more than the limit of 14400 s")
        // Audio events do not count: they are not rendered as haptics.
        let audio = PatternEvent(kind: .audioContinuous, time: 0, duration: 3_600)
        _ = try fixture.engine.makePlayer(pattern: Pattern(events: Array(repeating: audio, count: 5)))
    }
}

@Suite("Caller values at a pattern player's controls")
struct PlayerCallerValueTests {
    let pattern = Pattern(events: [
        PatternEvent(kind: .hapticContinuous, time: 0, duration: 0.2, parameters: EventParameters(hapticIntensity: 0.8, hapticSharpness: 0.4)),
    ])

    @Test("rates outside 1/64…64 throw PlayerError and change nothing", arguments: [
        Double.nan, .infinity, -.infinity, 0, -1, 1e-12, 1e12, 1.0 / 65, 65,
    ])
    func refusedRates(rate: Double) throws {
        let fixture = EngineFixture()
        let player = try fixture.engine.makePlayer(pattern: pattern)
        guard case let .invalidRate(refused)? = thrown({ () throws(PlayerError) in try player.setPlaybackRate(rate) }) else {
            Issue.record("rate \(rate) was accepted")
            return
        }
        #expect(refused.bitPattern == rate.bitPattern)
        #expect(thrown({ () throws(PlayerError) in try player.setPlaybackRate(rate, at: farFuture) }) != nil)
        #expect(player.timeline.withLock { $0.rate } == 1)
        let origin = fixture.clock.now()
        #expect(player.start().isScheduled)
        fixture.run(for: 1_000_000_000)
        #expect(same(fixture.received(since: origin), expected(player.programs[0], startingAt: 0)))
    }

    @Test("the ends of the rate range are accepted")
    func rateRangeEnds() throws {
        let fixture = EngineFixture()
        let player = try fixture.engine.makePlayer(pattern: pattern)
        #expect(try player.setPlaybackRate(64))
        #expect(try player.setPlaybackRate(1.0 / 64, at: farPast))
        #expect(try player.setPlaybackRate(1, at: farFuture))
    }

    @Test("parameter values that are not finite throw and send nothing", arguments: [Double.nan, .infinity, -.infinity])
    func refusedParameterValues(value: Double) throws {
        let fixture = EngineFixture(profiles: [.simulated])
        let player = try fixture.engine.makePlayer(pattern: pattern)
        #expect(player.start().isScheduled)
        fixture.run(for: 100_000_000)
        let before = fixture.devices[0].recording().count
        for id in [DynamicParameterID.hapticIntensityControl, .hapticSharpnessControl, .audioPanControl] {
            guard case let .invalidParameterValue(refusedID, refused)? = thrown({ () throws(PlayerError) in
                try player.send(id, value: value)
            }) else {
                Issue.record("\(id) \(value) was accepted")
                continue
            }
            #expect(refusedID == id && refused.bitPattern == value.bitPattern)
        }
        fixture.run(for: 1_000_000)
        #expect(fixture.devices[0].recording().count == before)
    }

    @Test("finite parameter values of any size are sent and clamped where they are re-mapped")
    func clampedParameterValues() throws {
        let fixture = EngineFixture(profiles: [.simulated])
        let origin = fixture.clock.now()
        let player = try fixture.engine.makePlayer(pattern: pattern)
        #expect(player.start().isScheduled)
        fixture.run(for: 100_000_000)
        #expect(try player.send(.hapticIntensityControl, value: 1e12))
        fixture.run(for: 1_000_000)
        #expect(fixture.received(since: origin).last?.1 == DeviceProfile.simulated.command(intensity: 1, sharpness: 0.4))
        #expect(try player.send(.hapticSharpnessControl, value: -1e12, at: farPast))
        fixture.run(for: 1_000_000)
        #expect(fixture.received(since: origin).last?.1 == DeviceProfile.simulated.command(intensity: 1, sharpness: 0))
        #expect(try player.send(.hapticIntensityControl, value: -1e-12))
        fixture.run(for: 1_000_000)
        #expect(fixture.received(since: origin).last?.1 == DeviceProfile.simulated.command(intensity: 0, sharpness: 0))
    }

    @Test("a curve with a time out of range or a value that is not finite sends nothing")
    func refusedCurves() throws {
        func curve(time: Double = 0, _ points: [(Double, Double)]) -> ParameterCurve {
            ParameterCurve(id: .hapticIntensityControl, time: time, controlPoints: points.map { .init(time: $0.0, value: $0.1) })
        }
        let cases: [(ParameterCurve, PlayerError)] = [
            (curve(time: .infinity, [(0, 1)]), .curveTimeOutOfRange(seconds: .infinity)),
            (curve(time: -1, [(0, 1)]), .curveTimeOutOfRange(seconds: -1)),
            (curve(time: 1e12, [(0, 1)]), .curveTimeOutOfRange(seconds: 1e12)),
            (curve([(0, 1), (1e12, 0)]), .curveTimeOutOfRange(seconds: 1e12)),
            (curve([(-1e-12, 1)]), .curveTimeOutOfRange(seconds: -1e-12)),
            (curve([(0, 1), (0.1, .infinity)]), .invalidParameterValue(.hapticIntensityControl, .infinity)),
            // Each value is finite; their difference is not, so interpolating overflows.
            (curve([(0, -1e308), (0.1, 1e308)]), .invalidParameterValue(.hapticIntensityControl, .infinity)),
        ]
        let baseline = received { fixture in
            let player = try? fixture.engine.makePlayer(pattern: pattern)
            _ = player?.start()
            fixture.run(for: 1_000_000_000)
        }
        for (refusedCurve, error) in cases {
            let recording = received { fixture in
                guard let player = try? fixture.engine.makePlayer(pattern: pattern) else { return }
                _ = player.start()
                fixture.run(for: 50_000_000)
                #expect(thrown({ () throws(PlayerError) in try player.send(refusedCurve) }) == error)
                fixture.run(for: 950_000_000)
            }
            #expect(same(recording, baseline))
        }
        let fixture = EngineFixture()
        let player = try fixture.engine.makePlayer(pattern: pattern)
        guard case .invalidParameterValue(_, let value)? = thrown({ () throws(PlayerError) in try player.send(curve([(0, .nan)])) }),
              value.isNaN else {
            Issue.record("a NaN control point was accepted")
            return
        }
        #expect(try player.send(curve(time: 3_600, [(0, 1), (0.1, 0.5)]), startingAt: farFuture))
        #expect(try player.send(curve(time: 0, [(0, 1), (0.1, 0.5)]), startingAt: farPast))
        // An hour-long curve is one submission, interpolated by the realtime side: accepted.
        #expect(try player.send(curve(time: 3_600, [(0, 1), (3_600, 0.5)])))
        #expect(PlayerError.invalidRate(0).description == "player: playback rate 0.0 is outside 1/64…64")
        #expect(PlayerError.curveTimeOutOfRange(seconds: -1).description == "player: curve time -1.0 s is outside 0…3600 s")
    }

    @Test("seeks, stops and loop switches take any offset and instant, and the player plays on")
    func controlsTakeAnything() throws {
        let fixture = EngineFixture()
        let player = try fixture.engine.makePlayer(pattern: pattern)
        #expect(player.start().isScheduled)
        #expect(player.start(feltAt: farFuture) == .notPlayed(.onsetOutOfRange))
        #expect(player.start(withSoundAudibleAt: farFuture) == .notPlayed(.onsetOutOfRange))
        #expect(player.start(at: farFuture)
            == PlaybackOutcome.WithSound(haptics: .notPlayed(.onsetOutOfRange), audio: .notPlayed(.onsetOutOfRange)))
        #expect(player.setLooping(true, at: farPast))
        #expect(player.seek(to: .seconds(Int64.max)))
        #expect(player.seek(to: .seconds(Int64.min), at: farFuture))
        #expect(player.seek(to: .nanoseconds(Int64.min), at: farPast))
        #expect(player.setLooping(false, at: farFuture))
        #expect(player.stop(at: farFuture))
        #expect(player.stop(at: farPast))
        fixture.run(for: 100_000_000)
        // The switch set for 2⁶² ns is still ahead: the player loops until switched off now.
        #expect(player.setLooping(false))
        fixture.run(for: 1_000_000_000)
        #expect(fixture.devices[0].recording().last?.command == .stop)
        fixture.devices[0].reset()

        // The first start played at once, from the caller's thread; the stop dated in the far past
        // then stopped it, and the seek to the end dated now left the stopped player at its end,
        // where its next start would begin. A seek to 0 brings it back.
        #expect(player.seek(to: .zero))
        fixture.run(for: 1_000_000)
        // A follow-up start plays its pattern from the start, on time.
        let origin = fixture.clock.now()
        #expect(player.start() == .scheduled(feltAt: origin + DeviceProfile.genericRumble.riseTime))
        fixture.run(for: 1_000_000_000)
        #expect(same(fixture.received(since: origin), expected(player.programs[0])))
    }
}

@Suite("Caller values on a running engine")
struct RealtimeCallerValueTests {
    @Test("the realtime thread plays on after every odd value a caller can pass")
    func realtimeThreadSurvives() throws {
        let device = SimulatedDevice(profile: .simulated)
        let engine = HapticEngine(
            outputs: [HapticEngine.Output(device: device, profile: .simulated)],
            configuration: .init(prepareLifetime: .seconds(Int64.max), housekeepingInterval: .seconds(Int64.max),
                                 scheduler: SchedulerConfiguration(queueCapacity: Int.max, traceCapacity: 0)))
        try engine.start()
        defer { engine.stop() }
        engine.gain = .nan
        #expect(engine.play(.impact(.heavy, intensity: .nan)) == .notPlayed(.invalidIntensity))
        #expect(engine.play(.selection, feltAt: farFuture) == .notPlayed(.onsetOutOfRange))
        #expect(engine.play(.selection, withSoundStartingNow: .seconds(Int64.max)) == .notPlayed(.onsetOutOfRange))
        #expect(ImpactFeedbackGenerator(engine: engine).impactOccurred(intensity: 1e12, feltAt: farPast).isScheduled)
        let player = try engine.makePlayer(pattern: Pattern(events: [PatternEvent(kind: .hapticContinuous, time: 0, duration: 0.05)]))
        #expect(player.setLooping(true, at: farPast))
        #expect(player.start(feltAt: farPast).isScheduled)
        #expect(thrown({ () throws(PlayerError) in try player.setPlaybackRate(.nan) }) != nil)
        #expect(thrown({ () throws(PlayerError) in try player.setPlaybackRate(1e-12) }) != nil)
        #expect(try player.setPlaybackRate(64, at: farPast))
        #expect(player.seek(to: .seconds(Int64.max), at: farPast))
        #expect(try player.send(.hapticSharpnessControl, value: -1e300, at: farFuture))
        #expect(try player.setPlaybackRate(1.0 / 64))
        usleep(5_000)
        #expect(player.stop())

        // Silence, then one selection tick, exactly as rendered.
        let tick = Renderer(profile: .simulated).render(Feedback.selection.canonicalPattern).commands.map(\.command)
        #expect(engine.play(.selection).isScheduled)
        let end = MonotonicInstant.now + .seconds(10)
        while device.recording().suffix(tick.count).map(\.command) != tick && MonotonicInstant.now < end { usleep(1_000) }
        #expect(device.recording().suffix(tick.count).map(\.command) == tick)
        #expect(engine.isRunning)
    }
}
