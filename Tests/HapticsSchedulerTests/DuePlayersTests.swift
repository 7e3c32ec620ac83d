import Testing
import HapticsPatterns
import HapticsRendering
@testable import HapticsScheduler
import HapticsSystem
import HapticsTestSupport

/// A pass performs the players (and the curve ticks) due at one instant after a single scan
/// (`advanceDue`, `tickDueCurves`). These tests play the same seeded script twice — once so, once
/// with a scan before every event, the order the single scan must reproduce — and compare
/// everything the scheduler did; after every step, each channel's count of active players must
/// match the active list.
@Suite("Players due at one instant: one scan, the order of a scan per event")
struct DuePlayersTests {
    /// What both runs were asked, and what they did.
    struct Run: Equatable {
        var emissions: [Emission]
        var endings: [PlayerEnding]
        var statistics: SchedulerStatistics
        var progress: [PlayerProgress?]
    }

    /// A small deterministic generator (SplitMix64), so each seed is one script.
    struct Seeded {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
    }

    /// One call of the script, at `offset` ms from the current instant.
    enum Step {
        case start(player: Int, offset: Int64, tag: Int64)
        case stop(player: Int, offset: Int64)
        case intensity(player: Int, value: Double)
        case rate(player: Int, rate: Double)
        case loop(player: Int, Bool)
        case seek(player: Int, milliseconds: Int64)
        case pause(player: Int)
        case resume(player: Int)
        case curve(player: Int, intensity: Bool, milliseconds: Int64)
        case motors(channel: Int, low: Double, milliseconds: Int64)
        case stopAll
        /// Advances the clock by this many milliseconds (0…4: passes with several instants due,
        /// and late ones) and processes.
        case process(Int64)
    }

    static let policies: [OverlapPolicy] = [.replace, .mix, .replace, .dropStale(maximumLateness: .milliseconds(2)), .mix, .replace]
    static let playersPerChannel = 2

    /// Programs on a 1 ms grid, so that players started on the grid fall due together: levels, two
    /// commands at one offset, silences.
    static func program(_ index: Int) -> Program {
        let shapes: [[(Int64, UInt16, UInt16)]] = [
            [(0, 0x8000, 0x2000), (1 * ms, 0x4000, 0x2000), (2 * ms, 0x8000, 0x1000), (3 * ms, 0x4000, 0)],
            [(0, 0x6000, 0), (2 * ms, 0x6000, 0x6000), (2 * ms, 0x3000, 0x3000), (5 * ms, 0x7000, 0)],
            [(1 * ms, 0xF000, 0xF000), (4 * ms, 0x1000, 0x1000)],
            [(0, 0x2000, 0x2000), (1 * ms, 0x2000, 0x2000), (2 * ms, 0x5000, 0x2000), (3 * ms, 0x2000, 0x5000)],
        ]
        return rumbleProgram(shapes[index % shapes.count], duration: Int64(6 + index % 3) * ms)
    }

    static func script(seed: UInt64, steps: Int) -> [Step] {
        var random = Seeded(state: seed)
        let players = policies.count * playersPerChannel
        var script: [Step] = []
        for _ in 0..<steps {
            let player = random.next(players)
            switch random.next(20) {
            case 0..<6: script.append(.start(player: player, offset: Int64(random.next(3)), tag: Int64(1 + random.next(3))))
            case 6: script.append(.stop(player: player, offset: Int64(random.next(3))))
            case 7: script.append(.intensity(player: player, value: [0.25, 0.5, 1][random.next(3)]))
            case 8: script.append(.rate(player: player, rate: [0.5, 1, 2][random.next(3)]))
            case 9: script.append(.loop(player: player, random.next(2) == 0))
            case 10: script.append(.seek(player: player, milliseconds: Int64(random.next(5))))
            case 11: script.append(.pause(player: player))
            case 12: script.append(.resume(player: player))
            case 13: script.append(.curve(player: player, intensity: random.next(2) == 0,
                                          milliseconds: [3, 25, 40][random.next(3)]))
            case 14: script.append(.motors(channel: random.next(policies.count), low: [0, 0.5, 1][random.next(3)],
                                           milliseconds: Int64(1 + random.next(4))))
            case 15 where random.next(8) == 0: script.append(.stopAll)
            default: script.append(.process(Int64(random.next(5))))
            }
        }
        script.append(.process(50))
        return script
    }

    /// Plays `script` on a fresh scheduler: six channels on one recording output (so the emissions
    /// of every channel are in one order), each level lasting 3 ms on its own (renewals: channel
    /// events), two players a channel.
    static func play(_ script: [Step], scanBeforeEveryEvent: Bool) throws -> Run {
        let clock = ManualClock(start: MonotonicInstant(nanoseconds: 1_000 * ms))
        let scheduler = Scheduler(clock: clock)
        scheduler.realtime.pointee.scansBeforeEveryEvent = scanBeforeEveryEvent
        let output = RecordingActuator(levelLifetime: .milliseconds(3))
        var channels: [ChannelID] = []
        var players: [PlayerID] = []
        for policy in policies {
            let channel = try scheduler.addChannel(output: output, profile: testRumble, policy: policy)
            channels.append(channel)
            for _ in 0..<playersPerChannel {
                players.append(try scheduler.makePlayer(program: scheduler.load(program(players.count)), channel: channel))
            }
        }
        var endings: [PlayerEnding] = []
        for step in script {
            let now = clock.now().nanoseconds
            let at = { (offset: Int64) in MonotonicInstant(nanoseconds: now + offset * ms) }
            switch step {
            case .start(let player, let offset, let tag): scheduler.start(players[player], at: at(offset), tag: tag)
            case .stop(let player, let offset): scheduler.stop(players[player], at: at(offset))
            case .intensity(let player, let value):
                try scheduler.setParameter(players[player], .hapticIntensityControl, value: value, at: at(0))
            case .rate(let player, let rate): try scheduler.setRate(players[player], rate, at: at(0))
            case .loop(let player, let enabled): scheduler.setLoop(players[player], enabled, at: at(0))
            case .seek(let player, let milliseconds): scheduler.seek(players[player], to: .milliseconds(milliseconds), at: at(0))
            case .pause(let player): scheduler.pause(players[player], at: at(0))
            case .resume(let player): scheduler.resume(players[player], at: at(0))
            case .curve(let player, let intensity, let milliseconds):
                let ramp = ParameterCurve(id: intensity ? .hapticIntensityControl : .hapticSharpnessControl, time: 0,
                                          controlPoints: [.init(time: 0, value: 1), .init(time: Double(milliseconds) / 1_000, value: 0.5)])
                try scheduler.setCurve(players[player], ramp, startingAt: at(0))
            case .motors(let channel, let low, let milliseconds):
                try scheduler.setMotorLevels(low: low, high: 0.5, on: channels[channel], at: at(0), until: at(milliseconds))
            case .stopAll: scheduler.stopAll(at: at(0))
            case .process(let milliseconds):
                clock.advance(to: at(milliseconds))
                scheduler.process()
            }
            scheduler.drainEndings(into: &endings)
            try #require(countsAgree(scheduler), "after \(step)")
        }
        return Run(emissions: output.recorded, endings: endings, statistics: scheduler.statistics,
                   progress: players.map { scheduler.progress(of: $0) })
    }

    /// Whether each channel's count of active players is the number of them the active list has
    /// there.
    static func countsAgree(_ scheduler: Scheduler) -> Bool {
        let state = scheduler.realtime.pointee
        var counts = [Int](repeating: 0, count: policies.count)
        for position in 0..<state.activeCount { counts[state.players[state.activePlayers[position]].channel] += 1 }
        return counts.indices.allSatisfy { counts[$0] == state.channelStates[$0].activePlayerCount }
    }

    @Test(arguments: 0..<24)
    func oneScanPlaysWhatAScanPerEventPlays(seed: UInt64) throws {
        let script = Self.script(seed: seed, steps: 400)
        let batched = try Self.play(script, scanBeforeEveryEvent: false)
        let reference = try Self.play(script, scanBeforeEveryEvent: true)
        #expect(batched == reference)
        // Not a vacuous comparison: some instant had players on several channels due together.
        var channelsAtInstant: [Int64: Set<Int>] = [:]
        for emission in batched.emissions { channelsAtInstant[emission.deadlineNanoseconds, default: []].insert(emission.channel) }
        #expect(channelsAtInstant.values.contains { $0.count >= 3 })
        #expect(batched.emissions.count > 100)
    }

    /// Players due together, with the events the single scan must not pass over: a player with
    /// two commands at one offset, one that ends, and a level renewal on a channel falling due at
    /// the same instant (channel events come after players').
    @Test func playersDueTogetherInListOrderWithRenewalsAfter() throws {
        let clock = ManualClock(start: MonotonicInstant(nanoseconds: 1_000 * ms))
        let scheduler = Scheduler(clock: clock)
        let output = RecordingActuator(levelLifetime: .milliseconds(4))
        let t0 = clock.now().nanoseconds
        var players: [PlayerID] = []
        let programs = [
            rumbleProgram([(0, 0x1000, 0), (2 * ms, 0x2000, 0)], duration: 6 * ms),
            rumbleProgram([(0, 0x3000, 0), (2 * ms, 0x4000, 0), (2 * ms, 0x5000, 0)], duration: 6 * ms),
            rumbleProgram([(0, 0x6000, 0)], duration: 2 * ms),
            rumbleProgram([(0, 0x7000, 0)], duration: 10 * ms),
        ]
        for program in programs {
            let channel = try scheduler.addChannel(output: output, profile: testRumble, policy: .replace)
            players.append(try scheduler.makePlayer(program: scheduler.load(program), channel: channel))
        }
        for player in players { scheduler.start(player, at: MonotonicInstant(nanoseconds: t0)) }
        scheduler.process()
        clock.advance(to: MonotonicInstant(nanoseconds: t0 + 3 * ms))
        scheduler.process()
        let level = { (strong: UInt16) in ActuatorCommand.rumble(strong: strong, weak: 0) }
        #expect(output.recorded == [
            Emission(level(0x1000), channel: 0, deadlineNanoseconds: t0, nowNanoseconds: t0),
            Emission(level(0x3000), channel: 1, deadlineNanoseconds: t0, nowNanoseconds: t0),
            Emission(level(0x6000), channel: 2, deadlineNanoseconds: t0, nowNanoseconds: t0),
            Emission(level(0x7000), channel: 3, deadlineNanoseconds: t0, nowNanoseconds: t0),
            // At 2 ms, in list order: player 0; player 1's two commands; player 2's end; then the
            // renewal of channel 3's level (half its 4 ms lifetime after it was written).
            Emission(level(0x2000), channel: 0, deadlineNanoseconds: t0 + 2 * ms, nowNanoseconds: t0 + 3 * ms),
            Emission(level(0x4000), channel: 1, deadlineNanoseconds: t0 + 2 * ms, nowNanoseconds: t0 + 3 * ms),
            Emission(level(0x5000), channel: 1, deadlineNanoseconds: t0 + 2 * ms, nowNanoseconds: t0 + 3 * ms),
            Emission(.stop, channel: 2, deadlineNanoseconds: t0 + 2 * ms, nowNanoseconds: t0 + 3 * ms),
            Emission(level(0x7000), channel: 3, deadlineNanoseconds: t0 + 2 * ms, nowNanoseconds: t0 + 3 * ms),
        ])
    }

    /// Three players' curves tick together; the first one's curve ends there, and giving it back
    /// moves the last player of the curve list to its place: the next scan picks that one before
    /// the second, and so must the pass.
    static func curvesTickingTogether(scanBeforeEveryEvent: Bool) throws -> [Emission] {
        let clock = ManualClock(start: MonotonicInstant(nanoseconds: 1_000 * ms))
        let scheduler = Scheduler(clock: clock)
        scheduler.realtime.pointee.scansBeforeEveryEvent = scanBeforeEveryEvent
        let output = RecordingActuator()
        let t0 = clock.now()
        for length in [0.010, 0.040, 0.040] {
            let channel = try scheduler.addChannel(output: output, profile: testRumble, policy: .replace)
            let player = try scheduler.makePlayer(
                program: scheduler.load(rumbleProgram([(0, 0x8000, 0x8000)], duration: 100 * ms)), channel: channel)
            scheduler.start(player, at: t0)
            let ramp = ParameterCurve(id: .hapticIntensityControl, time: 0,
                                      controlPoints: [.init(time: 0, value: 1), .init(time: length, value: 0.5)])
            try scheduler.setCurve(player, ramp, startingAt: t0)
        }
        scheduler.process()
        clock.advance(to: t0.advanced(by: 10 * ms))
        scheduler.process()
        return output.recorded
    }

    @Test func aCurveGivenBackReordersTheTicksDueWithIt() throws {
        let emissions = try Self.curvesTickingTogether(scanBeforeEveryEvent: false)
        let t10 = 1_000 * ms + 10 * ms
        // The testRumble profile's control interval (10 ms) is the curves' tick.
        #expect(emissions.filter { $0.deadlineNanoseconds == t10 }.map(\.channel) == [0, 2, 1])
        #expect(emissions == (try Self.curvesTickingTogether(scanBeforeEveryEvent: true)))
    }
}
