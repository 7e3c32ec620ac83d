import Glibc
import HapticsDevices
import HapticsPatterns
import HapticsRendering
import HapticsScheduler
import HapticsSystem
import HapticsTestSupport
import Synchronization
import Testing
@testable import Haptics

@Suite("Pattern players have a lifecycle")
struct PlayerLifecycleTests {
    let pattern = Pattern(events: [
        PatternEvent(kind: .hapticContinuous, time: 0, duration: 0.2, parameters: EventParameters(hapticIntensity: 0.8, hapticSharpness: 0.4)),
    ])

    /// A player whose completions are recorded.
    func recordedPlayer(_ fixture: EngineFixture) throws -> (HapticPatternPlayer, Recorder<PlayerCompletion>) {
        let player = try fixture.engine.makePlayer(pattern: pattern)
        let completions = Recorder<PlayerCompletion>()
        player.completionHandler = { completions.append($0) }
        return (player, completions)
    }

    @Test("a player that plays to its end completes as finished, once, at housekeeping and not before")
    func finishes() throws {
        let fixture = EngineFixture()
        let (player, completions) = try recordedPlayer(fixture)
        #expect(player.start().isScheduled)
        fixture.run(for: 1_000_000)
        #expect(player.isPlaying)
        fixture.run(for: 1_000_000_000)
        #expect(!player.isPlaying)
        // Processing (the realtime side) only pushed the ending; the handler runs at housekeeping.
        #expect(completions.all.isEmpty)
        fixture.engine.performHousekeeping()
        #expect(completions.all == [.finished])
        fixture.engine.performHousekeeping()
        #expect(completions.all == [.finished])
    }

    @Test("a stopped player completes as stopped; a restart stops the start before it")
    func stops() throws {
        let fixture = EngineFixture()
        let (player, completions) = try recordedPlayer(fixture)
        #expect(player.start().isScheduled)
        fixture.run(for: 50_000_000)
        #expect(player.stop())
        fixture.run(for: 10_000_000)
        fixture.engine.performHousekeeping()
        #expect(completions.take() == [.stopped])

        #expect(player.start().isScheduled)
        fixture.run(for: 50_000_000)
        #expect(player.start().isScheduled)
        fixture.run(for: 1_000_000_000)
        fixture.engine.performHousekeeping()
        #expect(completions.take() == [.stopped, .finished])

        // A looping player only ever stops; so does everything the engine's stop ends.
        #expect(player.setLooping(true))
        #expect(player.start().isScheduled)
        fixture.run(for: 1_000_000_000)
        fixture.engine.performHousekeeping()
        #expect(completions.all.isEmpty)
        fixture.engine.stop()
        #expect(completions.take() == [.stopped])
    }

    @Test("on a running engine the completion comes once, from the housekeeping thread, not the realtime thread")
    func completionOffTheRealtimeThread() throws {
        let device = SimulatedDevice(profile: .simulated)
        let engine = HapticEngine(outputs: [HapticEngine.Output(device: device, profile: .simulated)],
                                  configuration: .init(housekeepingInterval: .milliseconds(5)))
        try engine.start()
        defer { engine.stop() }
        let player = try engine.makePlayer(pattern: Pattern(events: [PatternEvent(kind: .hapticContinuous, time: 0, duration: 0.05)]))
        let completions = Recorder<(PlayerCompletion, String)>()
        player.completionHandler = { completion in
            // The calling thread's name, as `top -H` shows it.
            var name = [CChar](repeating: 0, count: 32)
            if let file = fopen("/proc/thread-self/comm", "r") {
                _ = fgets(&name, 32, file)
                fclose(file)
            }
            let text = String(decoding: name.prefix { $0 != 0 && $0 != 10 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            completions.append((completion, text))
        }
        #expect(player.start().isScheduled)
        // Generous: a loaded machine may run housekeeping late; the pattern lasts 50 ms.
        for _ in 0..<5_000 where completions.all.isEmpty { usleep(1_000) }
        usleep(50_000)
        let recorded = completions.all
        #expect(recorded.map(\.0) == [.finished])
        #expect(recorded.allSatisfy { !$0.1.isEmpty && $0.1 != "haptics-rt" })
    }

    @Test("pause silences at once and keeps the position; resume continues in phase")
    func pauseAndResume() throws {
        let fixture = EngineFixture()
        let origin = fixture.clock.now()
        let (player, completions) = try recordedPlayer(fixture)
        #expect(player.start().isScheduled)
        fixture.run(for: 100_000_000)
        #expect(player.position == .milliseconds(100))
        #expect(player.pause())
        fixture.run(for: 300_000_000)
        #expect(player.isPaused && !player.isPlaying)
        #expect(player.position == .milliseconds(100))
        #expect(player.resume())
        fixture.run(for: 50_000_000)
        #expect(player.isPlaying)
        #expect(player.position == .milliseconds(150))
        fixture.run(for: 1_000_000_000)
        fixture.engine.performHousekeeping()
        #expect(completions.all == [.finished])

        // What the device got: the program up to 100 ms, a stop there, then from the level in effect
        // at 100 ms on, 300 ms later.
        let pauseAt: Int64 = 100_000_000
        let shift: Int64 = 300_000_000
        let commands = player.programs[0].commands
        let inEffect = try #require(commands.last { $0.offsetNanoseconds <= pauseAt })
        let expectedCommands = commands.filter { $0.offsetNanoseconds < pauseAt }.map { ($0.offsetNanoseconds, $0.command) }
            + [(pauseAt, .stop), (pauseAt + shift, inEffect.command)]
            + commands.filter { $0.offsetNanoseconds > pauseAt }.map { ($0.offsetNanoseconds + shift, $0.command) }
        #expect(same(fixture.received(since: origin), expectedCommands))
        #expect(!inEffect.command.isSilent)
    }

    @Test("the position follows the playback rate")
    func positionAtRates() throws {
        let fixture = EngineFixture()
        let player = try fixture.engine.makePlayer(pattern: pattern)
        #expect(player.position == .zero)
        #expect(try player.setPlaybackRate(0.5))
        #expect(player.start().isScheduled)
        fixture.run(for: 100_000_000)
        #expect(player.position == .milliseconds(50))
        #expect(try player.setPlaybackRate(2))
        fixture.run(for: 40_000_000)
        #expect(player.position == .milliseconds(130))
        #expect(player.seek(to: .milliseconds(20)))
        fixture.run(for: 10_000_000)
        #expect(player.position == .milliseconds(40))
    }

    @Test("a device added while a player plays joins it in phase, and the completion waits for both")
    func joinInPhase() throws {
        let fixture = EngineFixture()
        let origin = fixture.clock.now()
        let (player, completions) = try recordedPlayer(fixture)
        #expect(player.start().isScheduled)
        fixture.run(for: 100_000_000)
        let joining = SimulatedDevice(profile: .genericRumble)
        try fixture.engine.addOutput(HapticEngine.Output(device: joining, profile: .genericRumble))
        fixture.run(for: 1_000_000_000)
        fixture.engine.performHousekeeping()
        #expect(completions.all == [.finished])

        let first = fixture.received(since: origin)
        let joinedAt: Int64 = 100_000_000
        let commands = player.programs[1].commands
        let inEffect = try #require(commands.last { $0.offsetNanoseconds <= joinedAt })
        let expectedCommands = [(joinedAt, inEffect.command)] + commands.filter { $0.offsetNanoseconds > joinedAt }.map { ($0.offsetNanoseconds, $0.command) }
        let second = joining.recording().map { ($0.time.nanoseconds - origin.nanoseconds, $0.command) }
        #expect(same(second, expectedCommands))
        // Every command after the join reaches both devices at the same instant.
        #expect(same(Array(first.filter { $0.0 > joinedAt }), Array(second.dropFirst())))
        #expect(player.programs.count == 2)
    }

    @Test("a device removed while a player plays goes silent at once; the completion waits for the other")
    func leave() throws {
        let fixture = EngineFixture()
        let origin = fixture.clock.now()
        let leaving = SimulatedDevice(profile: .genericRumble)
        try fixture.engine.addOutput(HapticEngine.Output(device: leaving, profile: .genericRumble, path: "test/leaving"))
        let (player, completions) = try recordedPlayer(fixture)
        #expect(player.start().isScheduled)
        fixture.run(for: 100_000_000)
        #expect(fixture.engine.removeOutput(path: "test/leaving"))
        fixture.run(for: 1_000_000_000)
        let left = leaving.recording().map { ($0.time.nanoseconds - origin.nanoseconds, $0.command) }
        #expect(left.last.map { $0.0 == 100_000_000 && $0.1 == .stop } == true)
        #expect(same(fixture.received(since: origin), expected(player.programs[0])))
        fixture.engine.performHousekeeping()
        #expect(completions.all == [.finished])
    }

    @Test("a pad unplugged and plugged in again while a player plays joins it again, in phase")
    func rejoin() throws {
        let fixture = EngineFixture()
        let origin = fixture.clock.now()
        try fixture.engine.addOutput(HapticEngine.Output(device: SimulatedDevice(profile: .genericRumble), profile: .genericRumble, path: "test/pad"))
        let (player, completions) = try recordedPlayer(fixture)
        #expect(player.start().isScheduled)
        fixture.run(for: 50_000_000)
        #expect(fixture.engine.removeOutput(path: "test/pad"))
        fixture.run(for: 50_000_000)
        let again = SimulatedDevice(profile: .genericRumble)
        try fixture.engine.addOutput(HapticEngine.Output(device: again, profile: .genericRumble, path: "test/pad"))
        fixture.run(for: 1_000_000_000)
        fixture.engine.performHousekeeping()
        #expect(completions.all == [.finished])

        let joinedAt: Int64 = 100_000_000
        let commands = player.programs[0].commands
        let inEffect = try #require(commands.last { $0.offsetNanoseconds <= joinedAt })
        let expectedCommands = [(joinedAt, inEffect.command)] + commands.filter { $0.offsetNanoseconds > joinedAt }.map { ($0.offsetNanoseconds, $0.command) }
        #expect(same(again.recording().map { ($0.time.nanoseconds - origin.nanoseconds, $0.command) }, expectedCommands))
    }

    @Test("a device added while a player is paused joins it paused and resumes with it")
    func joinWhilePaused() throws {
        let fixture = EngineFixture()
        let origin = fixture.clock.now()
        let player = try fixture.engine.makePlayer(pattern: pattern)
        #expect(player.start().isScheduled)
        fixture.run(for: 100_000_000)
        #expect(player.pause())
        fixture.run(for: 10_000_000)
        let joining = SimulatedDevice(profile: .genericRumble)
        try fixture.engine.addOutput(HapticEngine.Output(device: joining, profile: .genericRumble))
        fixture.run(for: 10_000_000)
        #expect(joining.recording().isEmpty)
        #expect(player.resume())
        fixture.run(for: 1_000_000_000)
        let first = fixture.received(since: origin).filter { $0.0 >= 120_000_000 }
        let second = joining.recording().map { ($0.time.nanoseconds - origin.nanoseconds, $0.command) }
        #expect(same(first, second))
        #expect(!second.isEmpty)
    }

    @Test("a 1,000-point curve is one submission per device, played to its last value")
    func curveIsOneSubmission() throws {
        let fixture = EngineFixture(profiles: [.simulated])
        let origin = fixture.clock.now()
        let long = Pattern(events: [
            PatternEvent(kind: .hapticContinuous, time: 0, duration: 30, parameters: EventParameters(hapticIntensity: 0.8, hapticSharpness: 0.4)),
        ])
        let player = try fixture.engine.makePlayer(pattern: long)
        let scheduler = fixture.engine.scheduler
        #expect(player.start().isScheduled)
        let curve = ParameterCurve(id: .hapticIntensityControl, time: 0, controlPoints: (0..<1_000).map {
            .init(time: Double($0) * 0.01, value: $0 % 2 == 0 ? 0.25 : 0.75)
        })
        let before = scheduler.statistics.submitted
        #expect(try player.send(curve))
        #expect(scheduler.statistics.submitted == before + 1)
        fixture.run(for: 12_000_000_000)
        #expect(scheduler.statistics.dropped == 0)
        // The last point (9.99 s, 0.75) holds after the curve.
        let last = fixture.received(since: origin).last { $0.0 <= 12_000_000_000 && !$0.1.isSilent }
        #expect(last?.1 == DeviceProfile.simulated.command(intensity: 0.8 * 0.75, sharpness: 0.4))
        #expect(scheduler.statistics.heldCurves == 0)
    }

    @Test("a curve to a full queue returns false and is counted; a too long or unordered one is refused")
    func curveRefusals() throws {
        var configuration = HapticEngine.Configuration()
        configuration.scheduler.queueCapacity = 2
        let fixture = EngineFixture(configuration: configuration)
        let player = try fixture.engine.makePlayer(pattern: pattern)
        let scheduler = fixture.engine.scheduler
        let ramp = ParameterCurve(id: .hapticIntensityControl, time: 0, controlPoints: [.init(time: 0, value: 1), .init(time: 0.1, value: 0)])
        #expect(try player.send(.hapticIntensityControl, value: 1))
        #expect(try player.send(.hapticIntensityControl, value: 1))
        #expect(try player.send(ramp) == false)
        #expect(scheduler.statistics.dropped == 1)
        #expect(scheduler.statistics.heldCurves == 0)

        let tooLong = ParameterCurve(id: .hapticIntensityControl, time: 0, controlPoints: (0..<1_025).map { .init(time: Double($0), value: 1) })
        #expect(throws: PlayerError.curveTooLong(points: 1_025, maximum: 1_024)) { try player.send(tooLong) }
        let unordered = ParameterCurve(id: .hapticIntensityControl, time: 0, controlPoints: [.init(time: 1, value: 1), .init(time: 0.5, value: 1)])
        #expect(throws: PlayerError.curveOutOfOrder(index: 1)) { try player.send(unordered) }
        #expect(PlayerError.curveTooLong(points: 1_025, maximum: 1_024).description
            == "player: a curve of 1025 control points is longer than the 1024 a curve may have")
        #expect(PlayerError.curveOutOfOrder(index: 1).description == "player: curve control point 1 comes before the point ahead of it")
        #expect(scheduler.statistics.dropped == 1)
    }
}

@Suite("Player lifecycle under concurrency")
struct PlayerLifecycleConcurrencyTests {
    @Test("starts, stops, pauses, resumes, curves and position reads from 4 threads: every start completes once, no curve slot is left, silence after stop",
          .loadsEveryCore)
    func fourThreadsAgainstOnePlayer() throws {
        let devices = [SimulatedDevice(profile: .genericRumble), SimulatedDevice(profile: .dualSense)]
        var configuration = HapticEngine.Configuration(housekeepingInterval: .milliseconds(2))
        configuration.scheduler.queueCapacity = 1 << 16
        let engine = HapticEngine(outputs: devices.map { HapticEngine.Output(device: $0, profile: $0.profile) },
                                  configuration: configuration)
        try engine.start()
        let scheduler = engine.scheduler
        let player = try engine.makePlayer(pattern: Pattern(events: [
            PatternEvent(kind: .hapticContinuous, time: 0, duration: 0.05, parameters: EventParameters(hapticIntensity: 0.7, hapticSharpness: 0.3)),
        ]))
        let completions = Recorder<PlayerCompletion>()
        player.completionHandler = { completions.append($0) }
        let duration = player.duration
        let starts = Atomic<Int>(0)
        let unexpected = Atomic<Int>(0)
        let curve = ParameterCurve(id: .hapticIntensityControl, time: 0, controlPoints: [
            .init(time: 0, value: 0.2), .init(time: 0.05, value: 1), .init(time: 0.1, value: 0.5),
        ])
        let calls = Sanitizers.active ? 500 : 3_000
        runConcurrently(4, niceness: 19) { thread in
            for index in 0..<calls {
                switch thread {
                case 0:
                    if index.isMultiple(of: 3) {
                        if !player.stop() { unexpected.add(1, ordering: .relaxed) }
                    } else if case .scheduled = player.start() {
                        starts.add(1, ordering: .relaxed)
                    } else {
                        unexpected.add(1, ordering: .relaxed)
                    }
                case 1:
                    if !(index.isMultiple(of: 2) ? player.pause() : player.resume()) { unexpected.add(1, ordering: .relaxed) }
                case 2:
                    // A full curve space is a `false`, counted; nothing else may refuse.
                    if (try? player.send(curve)) == nil { unexpected.add(1, ordering: .relaxed) }
                default:
                    let position = player.position
                    if position < .zero || position > duration { unexpected.add(1, ordering: .relaxed) }
                    _ = player.isPlaying
                }
                usleep(50)
            }
        }
        // Everything submitted is due by now: wait until processing has taken all of it (a loaded
        // machine can hold the realtime thread past any fixed sleep, and stop() would discard the
        // rest, leaving starts that never complete), then stop.
        func taken() -> Bool {
            let statistics = scheduler.statistics
            return statistics.submitted == statistics.applied + statistics.ignored
        }
        for _ in 0..<10_000 where !taken() { usleep(1_000) }
        #expect(taken())
        for device in devices { device.reset() }
        engine.stop()
        #expect(unexpected.load(ordering: .relaxed) == 0)
        #expect(scheduler.statistics.dropped == 0)
        #expect(scheduler.statistics.heldCurves == 0)
        #expect(scheduler.statistics.lostEndings == 0)
        #expect(completions.all.count == starts.load(ordering: .relaxed))
        for device in devices where !device.recording().isEmpty {
            #expect(device.recording().last?.command == .stop)
        }
    }
}
