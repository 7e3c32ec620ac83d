import HapticsDevices
import HapticsRendering
import HapticsScheduler
import HapticsSystem
import HapticsTestSupport
import Glibc
import Testing
@testable import Haptics

/// Rumble as games write it: `rumble(low:high:duration:)` (SDL) and `setMotorLevels(low:high:)`
/// (Unity), on an engine driven by a manual clock.
@Suite("Rumble and motor levels")
struct RumbleTests {
    let ms: Int64 = 1_000_000

    /// An engine on a manual clock with one generic rumble pad that keeps each level 2 s on its
    /// own, like an evdev streaming effect.
    struct Rig {
        let clock = ManualClock(start: MonotonicInstant(nanoseconds: 1_000_000_000))
        let pad = RecordingActuator(levelLifetime: .seconds(2))
        let engine: HapticEngine
        var t0: Int64 { 1_000_000_000 }

        init() {
            engine = HapticEngine(clock: clock, outputs: [HapticEngine.Output(device: pad, profile: .genericRumble)])
            engine.startManuallyDriven()
        }

        /// Processes at every deadline up to `limit` (ns since t0), as the realtime thread wakes.
        func run(until limit: Int64) {
            var next = engine.process()
            while let deadline = next, deadline.nanoseconds <= t0 + limit {
                clock.advance(to: max(deadline, clock.now()))
                next = engine.process()
            }
        }

        func advance(to offset: Int64) {
            run(until: offset)
            clock.advance(to: MonotonicInstant(nanoseconds: t0 + offset))
        }

        /// (ns since t0, command) of everything the pad was told.
        var received: [(Int64, ActuatorCommand)] { pad.recorded.map { ($0.nowNanoseconds - t0, $0.command) } }
    }

    func same(_ received: [(Int64, ActuatorCommand)], _ expected: [(Int64, ActuatorCommand)]) -> Bool {
        received.count == expected.count && zip(received, expected).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    }

    @Test func aThirtySecondRumbleHoldsToItsEndRenewedEveryNineteenHundredFiftyMilliseconds() {
        let rig = Rig()
        #expect(rig.engine.rumble(low: 0.25, high: 0.75, duration: .seconds(30)) == .scheduled(feltAt: rig.clock.now()))
        rig.run(until: 60_000 * ms)
        let level = ActuatorCommand.rumble(strong: 16_384, weak: 49_151)
        let renewals: [(Int64, ActuatorCommand)] = stride(from: 1_950 * ms, through: 29_250 * ms, by: Int(1_950 * ms)).map { ($0, level) }
        let expected: [(Int64, ActuatorCommand)] = [(0, level)] + renewals + [(30_000 * ms, .stop)]
        #expect(same(rig.received, expected), "\(rig.received)")
    }

    @Test func motorLevelsHoldUntilChangedAndEndAtTheSafetyTimeoutAfterTheLastCall() {
        let rig = Rig()
        #expect(rig.engine.motorLevelTimeout == .seconds(3))
        #expect(rig.engine.setMotorLevels(low: 1, high: 0).isScheduled)
        rig.advance(to: 1_000 * ms)
        // The same levels again only re-arm the timeout: nothing is sent.
        #expect(rig.engine.setMotorLevels(low: 1, high: 0).isScheduled)
        rig.advance(to: 2_000 * ms)
        #expect(rig.engine.setMotorLevels(low: 0, high: 0.5).isScheduled)
        rig.run(until: 20_000 * ms)
        let low = ActuatorCommand.rumble(strong: 0xFFFF, weak: 0)
        let high = ActuatorCommand.rumble(strong: 0, weak: 32_768)
        let expected: [(Int64, ActuatorCommand)] = [
            (0, low), (1_950 * ms, low), (2_000 * ms, high), (3_950 * ms, high), (5_000 * ms, .stop),
        ]
        #expect(same(rig.received, expected), "\(rig.received)")
    }

    @Test func theSafetyTimeoutIsTheGamesToSetWithinItsRange() {
        let rig = Rig()
        rig.engine.motorLevelTimeout = .milliseconds(500)
        #expect(rig.engine.setMotorLevels(low: 0.5, high: 0.5).isScheduled)
        rig.run(until: 5_000 * ms)
        let expected: [(Int64, ActuatorCommand)] = [(0, .rumble(strong: 32_768, weak: 32_768)), (500 * ms, .stop)]
        #expect(same(rig.received, expected), "\(rig.received)")
        rig.engine.motorLevelTimeout = .zero
        #expect(rig.engine.motorLevelTimeout == .milliseconds(10))
        rig.engine.motorLevelTimeout = .seconds(86_400)
        #expect(rig.engine.motorLevelTimeout == .seconds(3_600))
    }

    @Test func eachCallReplacesTheLastWhicheverKindItWas() {
        let rig = Rig()
        rig.engine.rumble(low: 1, high: 1, duration: .seconds(10))
        rig.advance(to: 100 * ms)
        rig.engine.setMotorLevels(low: 0.5, high: 0)
        rig.advance(to: 200 * ms)
        rig.engine.rumble(low: 0, high: 1, duration: .milliseconds(300))
        rig.run(until: 20_000 * ms)
        let expected: [(Int64, ActuatorCommand)] = [
            (0, .rumble(strong: 0xFFFF, weak: 0xFFFF)),
            (100 * ms, .rumble(strong: 32_768, weak: 0)),
            (200 * ms, .rumble(strong: 0, weak: 0xFFFF)),
            (500 * ms, .stop),
        ]
        #expect(same(rig.received, expected), "\(rig.received)")
    }

    @Test func zeroLevelsOrANonPositiveDurationStopAtOnce() {
        let rig = Rig()
        rig.engine.rumble(low: 0.5, high: 0.5, duration: .seconds(10))
        rig.advance(to: 100 * ms)
        #expect(rig.engine.rumble(low: 0, high: 0, duration: .seconds(10)).isScheduled)
        rig.advance(to: 200 * ms)
        rig.engine.rumble(low: 0.5, high: 0.5, duration: .seconds(10))
        rig.advance(to: 300 * ms)
        rig.engine.rumble(low: 0.5, high: 0.5, duration: .milliseconds(-5))
        rig.run(until: 20_000 * ms)
        let half = ActuatorCommand.rumble(strong: 32_768, weak: 32_768)
        let expected: [(Int64, ActuatorCommand)] = [(0, half), (100 * ms, .stop), (200 * ms, half), (300 * ms, .stop)]
        #expect(same(rig.received, expected), "\(rig.received)")
    }

    enum Ending: CaseIterable {
        case engineStop, disabled, applicationInactive, outputRemoved
    }

    @Test(arguments: Ending.allCases)
    func everyWayOfEndingPlaybackEndsTheRumble(ending: Ending) {
        let clock = ManualClock(start: MonotonicInstant(nanoseconds: 1_000_000_000))
        let pad = RecordingActuator(levelLifetime: .seconds(2))
        let engine = HapticEngine(clock: clock, outputs: [HapticEngine.Output(device: pad, profile: .genericRumble, path: "/dev/input/event7")])
        engine.startManuallyDriven()
        engine.rumble(low: 1, high: 1, duration: .seconds(60))
        engine.process()
        clock.advance(by: .milliseconds(10))
        switch ending {
        case .engineStop: engine.stop()
        case .disabled: engine.isEnabled = false
        case .applicationInactive: engine.isApplicationActive = false
        case .outputRemoved: #expect(engine.removeOutput(path: "/dev/input/event7"))
        }
        engine.process()
        clock.advance(by: .seconds(60))
        engine.process()
        #expect(pad.recorded == [
            Emission(.rumble(strong: 0xFFFF, weak: 0xFFFF), deadlineNanoseconds: 1_000_000_000, nowNanoseconds: 1_000_000_000),
            Emission(.stop, deadlineNanoseconds: 1_010_000_000, nowNanoseconds: 1_010_000_000),
        ])
    }

    @Test func valuesThatAreNotNumbersAreRefusedAndNothingChanges() {
        let rig = Rig()
        rig.engine.rumble(low: 0.5, high: 0.5, duration: .seconds(1))
        #expect(rig.engine.rumble(low: .nan, high: 0, duration: .seconds(1)) == .notPlayed(.invalidIntensity))
        #expect(rig.engine.setMotorLevels(low: 0, high: .infinity) == .notPlayed(.invalidIntensity))
        #expect(rig.engine.rumble(low: -2, high: 3, duration: .seconds(1)).isScheduled)
        rig.run(until: 5_000 * ms)
        let expected: [(Int64, ActuatorCommand)] = [
            (0, .rumble(strong: 32_768, weak: 32_768)), (0, .rumble(strong: 0, weak: 0xFFFF)), (1_000 * ms, .stop),
        ]
        #expect(same(rig.received, expected), "\(rig.received)")
    }

    @Test func theGainScalesTheLevelsAndAGainOfZeroEndsTheRumble() {
        let rig = Rig()
        rig.engine.gain = 0.5
        #expect(rig.engine.rumble(low: 1, high: 0.5, duration: .seconds(1)).isScheduled)
        rig.advance(to: 100 * ms)
        rig.engine.gain = 0
        #expect(rig.engine.setMotorLevels(low: 1, high: 1) == .notPlayed(.muted))
        rig.run(until: 5_000 * ms)
        let expected: [(Int64, ActuatorCommand)] = [(0, .rumble(strong: 32_768, weak: 16_384)), (100 * ms, .stop)]
        #expect(same(rig.received, expected), "\(rig.received)")
    }

    @Test func aStoppedEngineOrOneWithoutDevicesSaysWhy() {
        let stopped = HapticEngine(clock: ManualClock(), outputs: [.simulated()])
        #expect(stopped.rumble(low: 1, high: 1, duration: .seconds(1)) == .notPlayed(.engineStopped))
        let empty = HapticEngine(clock: ManualClock(), outputs: [])
        empty.startManuallyDriven()
        #expect(empty.setMotorLevels(low: 1, high: 1) == .notPlayed(.noDevice))
        let rig = Rig()
        #expect(rig.engine.rumble(low: 1, high: 1, duration: .seconds(1), where: { $0.rawValue == 5 }) == .notPlayed(.noDevice))
        #expect(rig.engine.rumble(low: 1, high: 1, duration: .seconds(1), where: { $0.rawValue == 0 }).isScheduled)
    }

    @Test func onTheRealtimeThreadRenewalsMeetGameThreadsAndStopLeavesSilence() throws {
        let pad = RecordingActuator(levelLifetime: .milliseconds(20))
        let engine = HapticEngine(outputs: [HapticEngine.Output(device: pad, profile: .genericRumble)])
        try engine.start()
        runConcurrently(4) { thread in
            for call in 0..<200 {
                engine.setMotorLevels(low: Double(call % 10 + 1) / 10, high: Double(thread) / 4)
                usleep(200)
            }
        }
        // The last level, held: renewed every 10 ms (half the 20 ms lifetime) on the realtime thread.
        // Waited for rather than slept on: under a sanitizer on a loaded machine 100 ms may hold one.
        func heldAfterLastCall() -> Int {
            let commands = pad.recorded.map(\.command)
            guard let last = commands.last else { return 0 }
            return commands.reversed().prefix { $0 == last }.count
        }
        var waited = 0
        while heldAfterLastCall() < 4 && waited < 400 {
            usleep(10_000)
            waited += 1
        }
        engine.stop()
        let commands = pad.recorded.map(\.command)
        #expect(commands.last == .stop)
        let held = commands.dropLast().reversed().prefix { $0 == commands[commands.count - 2] }.count
        #expect(held >= 3, "the held level was performed \(held) times after the last call")
    }
}
