import CEvdev
import HapticsDevices
import HapticsRendering
import HapticsScheduler
import HapticsSystem
import HapticsVirtualDevices
import Testing

/// Holds never end early, on a real kernel: a looping hum whose intensity changes at runtime and a
/// long rumble that changes halfway each play for more than 10 s on the virtual DualSense (whose
/// ff-memless layer really ends an effect when its `replay.length` runs out) and on the uinput
/// sink (which sees every play with the kernel's timestamp), from one scheduler's realtime thread.
@Suite(.requiresKernelTestbench, .serialized)
struct HoldKernelTests {
    static let ms: Int64 = 1_000_000
    static let second: Int64 = 1_000_000_000

    /// The DualSense and a generic rumble sink on one scheduler running its realtime thread.
    struct Rig {
        let controller: VirtualDualSense
        let sink: UInputForceFeedbackSink
        let pad: EvdevActuator
        let rumbler: EvdevActuator
        let padProfile: DeviceProfile
        let rumblerProfile: DeviceProfile
        let scheduler = Scheduler(clock: SystemMonotonicClock())
        let padChannel: ChannelID
        let rumblerChannel: ChannelID

        init(name: String) throws {
            controller = try VirtualDualSense()
            sink = try UInputForceFeedbackSink(.init(name: name, maximumEffects: 16))
            let node = try #require(try controller.waitForGamepadNode())
            pad = try EvdevActuator(path: node)
            rumbler = try EvdevActuator(path: sink.eventNodePath)
            padProfile = DeviceCatalog.profile(for: pad.device.info)
            rumblerProfile = DeviceCatalog.profile(for: rumbler.device.info)
            #expect(padProfile.name == "dualsense")
            #expect(rumblerProfile.name == "generic-rumble")
            padChannel = try scheduler.addChannel(output: pad, profile: padProfile)
            rumblerChannel = try scheduler.addChannel(output: rumbler, profile: rumblerProfile)
        }

        func close() {
            scheduler.stopRealtimeThread()
            pad.close()
            rumbler.close()
            sink.close()
            controller.close()
        }
    }

    /// One second of `profile`'s full level at sharpness 0.5, then its end: looped, an engine hum.
    static func hum(_ profile: DeviceProfile) -> Program {
        Program(profileName: profile.name, commands: [
            TimedCommand(offsetNanoseconds: 0, intensity: 1, sharpness: 0.5, command: profile.command(intensity: 1, sharpness: 0.5)),
            TimedCommand(offsetNanoseconds: second, intensity: 0, sharpness: 0, command: .stop),
        ], durationNanoseconds: 1_000_000_000, leadTimeNanoseconds: 0)
    }

    /// The DualSense's motor bytes for a rumble level: [weak / 256, strong / 256].
    static func motorBytes(_ command: ActuatorCommand) -> [UInt8] {
        guard case let .rumble(strong, weak) = command else { return [0, 0] }
        return [UInt8(weak >> 8), UInt8(strong >> 8)]
    }

    static func rumble(_ command: ActuatorCommand, id: Int16, length: UInt16) -> UploadedForceFeedbackEffect {
        guard case let .rumble(strong, weak) = command else { preconditionFailure("a rumble level") }
        return UploadedForceFeedbackEffect(type: UInt16(FF_RUMBLE), id: id, direction: 0, replayLength: length,
                                           replayDelay: 0, parameters: .rumble(strongMagnitude: strong, weakMagnitude: weak))
    }

    /// The spans within `from…to` (kernel time) in which nothing played on the sink: an effect
    /// played after its `replay.length` since its last play had run out, or a play more than 2 ms
    /// after the stop before it. An in-place update is not counted as restarting the length (not
    /// every driver restarts it).
    static func gaps(_ records: [UInputForceFeedbackRecord], from: Int64, to: Int64) -> [ClosedRange<Int64>] {
        var lengths: [Int16: Int64] = [:]
        var playing: (id: Int16, expires: Int64)?
        var stoppedAt: Int64?
        var gaps: [ClosedRange<Int64>] = []
        for record in records {
            let time = record.timestamp.nanoseconds
            switch record.event {
            case let .upload(effect, _):
                lengths[effect.id] = Int64(effect.replayLength) * ms
            case let .play(id, _):
                if let playing, time > playing.expires { gaps.append(playing.expires...time) }
                if playing == nil, let stoppedAt, time - stoppedAt > 2 * ms { gaps.append(stoppedAt...time) }
                playing = (id, time + (lengths[id] ?? 0))
            case let .stop(id):
                guard let current = playing, current.id == id else { continue }
                if time > current.expires { gaps.append(current.expires...time) }
                playing = nil
                stoppedAt = time
            default:
                break
            }
        }
        return gaps.compactMap { gap in
            let clipped = max(gap.lowerBound, from)...max(min(gap.upperBound, to), max(gap.lowerBound, from))
            return clipped.upperBound > clipped.lowerBound ? clipped : nil
        }
    }

    /// How much of each play's length was left when the same effect was played again (kernel
    /// time): the renewal margins.
    static func renewalMargins(_ records: [UInputForceFeedbackRecord]) -> [Int64] {
        var lengths: [Int16: Int64] = [:]
        var lastPlay: [Int16: Int64] = [:]
        var margins: [Int64] = []
        for record in records {
            switch record.event {
            case let .upload(effect, _): lengths[effect.id] = Int64(effect.replayLength) * ms
            case let .play(id, _):
                if let previous = lastPlay[id], let length = lengths[id] { margins.append(previous + length - record.timestamp.nanoseconds) }
                lastPlay[id] = record.timestamp.nanoseconds
            case let .stop(id): lastPlay[id] = nil
            default: break
            }
        }
        return margins
    }

    @Test func aLoopingHumWhoseIntensityChangesPlaysTenSecondsWithoutAGapOnTheDualSenseAndTheSink() throws {
        let rig = try Rig(name: "haptics-test hold hum sink")
        defer { rig.close() }
        let padHum = Self.hum(rig.padProfile)
        let rumblerHum = Self.hum(rig.rumblerProfile)
        try rig.pad.prepare(padHum)
        try rig.rumbler.prepare(rumblerHum)
        let padPlayer = try rig.scheduler.makePlayer(program: rig.scheduler.load(padHum), channel: rig.padChannel)
        let rumblerPlayer = try rig.scheduler.makePlayer(program: rig.scheduler.load(rumblerHum), channel: rig.rumblerChannel)
        try rig.scheduler.startRealtimeThread()
        let start = rig.scheduler.clock.now().advanced(by: 50 * Self.ms)
        for player in [padPlayer, rumblerPlayer] {
            #expect(rig.scheduler.setLoop(player, true, at: start))
            #expect(rig.scheduler.start(player, at: start))
            // Levels that were not prepared: they play through the streaming effect (2 s).
            #expect(try rig.scheduler.setParameter(player, .hapticIntensityControl, value: 0.6, at: start.advanced(by: 500 * Self.ms)))
            #expect(try rig.scheduler.setParameter(player, .hapticIntensityControl, value: 0.3, at: start.advanced(by: 5_500 * Self.ms)))
            #expect(rig.scheduler.stop(player, at: start.advanced(by: 10_250 * Self.ms)))
        }
        let full = rig.rumblerProfile.command(intensity: 1, sharpness: 0.5)
        let strong = rig.rumblerProfile.command(intensity: 0.6, sharpness: 0.5)
        let soft = rig.rumblerProfile.command(intensity: 0.3, sharpness: 0.5)
        // Prepared, the full level; then the streaming effect, updated in place at 5.5 s (and played
        // at once) and played again at each loop pass (1 s), which restarts its length.
        var expected: [UInputForceFeedbackEvent] = [
            .upload(Self.rumble(full, id: 0, length: 1_100), previous: nil),
            .play(effectID: 0, count: 1),
            .upload(Self.rumble(strong, id: 1, length: 2_000), previous: nil), .stop(effectID: 0), .play(effectID: 1, count: 1),
        ]
        expected += Array(repeating: .play(effectID: 1, count: 1), count: 5)  // Passes at 1…5 s.
        expected.append(.upload(Self.rumble(soft, id: 1, length: 2_000), previous: Self.rumble(strong, id: 1, length: 2_000)))
        expected.append(.play(effectID: 1, count: 1))  // 5.5 s: the update applied at once.
        expected += Array(repeating: .play(effectID: 1, count: 1), count: 5)  // Passes at 6…10 s.
        expected.append(.stop(effectID: 1))
        let records = rig.sink.waitForRecords(count: expected.count, timeout: .seconds(20))
        #expect(records.map(\.event) == expected)
        let end = start.nanoseconds + 10_250 * Self.ms
        #expect(Self.gaps(records, from: start.nanoseconds, to: end) == [])
        let last = try #require(records.last)
        #expect(last.timestamp.nanoseconds >= end)

        let padStates: [[UInt8]] = [
            Self.motorBytes(rig.padProfile.command(intensity: 1, sharpness: 0.5)),
            Self.motorBytes(rig.padProfile.command(intensity: 0.6, sharpness: 0.5)),
            Self.motorBytes(rig.padProfile.command(intensity: 0.3, sharpness: 0.5)),
            [0, 0],
        ]
        let reports = rig.controller.waitForOutputReports(timeout: .seconds(20)) { motorStates($0).last == [0, 0] && motorStates($0).count > 1 }
        // ff-memless ends an effect whose replay.length runs out: a gap would show as [0, 0] before the end.
        #expect(motorStates(reports) == padStates)
        let silence = try #require(reports.last { $0.setsMotors && $0.weakMotor == 0 && $0.strongMotor == 0 })
        #expect(silence.receivedAt.nanoseconds >= end)
        print("hold hum: sink plays \(records.filter { if case .play = $0.event { true } else { false } }.count) in 10.25 s; "
              + "margins (ms) \(Self.renewalMargins(records).map { $0 / Self.ms }); "
              + "renewals \(rig.scheduler.statistics.renewed)")
    }

    @Test func aTenSecondRumbleThatChangesHalfwayIsRenewedWithoutAGapOnTheDualSenseAndTheSink() throws {
        let rig = try Rig(name: "haptics-test hold rumble sink")
        defer { rig.close() }
        try rig.scheduler.startRealtimeThread()
        let start = rig.scheduler.clock.now().advanced(by: 50 * Self.ms)
        let end = start.advanced(by: 10 * Self.second)
        for channel in [rig.padChannel, rig.rumblerChannel] {
            #expect(try rig.scheduler.setMotorLevels(low: 0.25, high: 0.75, on: channel, at: start, until: end))
            #expect(try rig.scheduler.setMotorLevels(low: 0.5, high: 0.5, on: channel, at: start.advanced(by: 5 * Self.second), until: end))
        }
        let first = ActuatorCommand.rumble(strong: 16_384, weak: 49_151)
        let second = ActuatorCommand.rumble(strong: 32_768, weak: 32_768)
        // The streaming effect (2 s) played again every 1.95 s; the change is an in-place update
        // played at once, which restarts the length.
        var expected: [UInputForceFeedbackEvent] = [
            .upload(Self.rumble(first, id: 0, length: 2_000), previous: nil),
            .play(effectID: 0, count: 1), .play(effectID: 0, count: 1), .play(effectID: 0, count: 1),  // 0, 1.95, 3.9 s
            .upload(Self.rumble(second, id: 0, length: 2_000), previous: Self.rumble(first, id: 0, length: 2_000)),  // 5 s
        ]
        expected += Array(repeating: .play(effectID: 0, count: 1), count: 3)  // 5 s (the update), 6.95, 8.9 s
        expected.append(.stop(effectID: 0))  // 10 s
        let records = rig.sink.waitForRecords(count: expected.count, timeout: .seconds(20))
        #expect(records.map(\.event) == expected)
        #expect(Self.gaps(records, from: start.nanoseconds, to: end.nanoseconds) == [])
        let last = try #require(records.last)
        #expect(last.timestamp.nanoseconds >= end.nanoseconds)
        let margins = Self.renewalMargins(records)
        #expect(margins.count == 5)
        #expect(margins.allSatisfy { $0 > 0 }, "renewal margins (ns): \(margins)")

        let reports = rig.controller.waitForOutputReports(timeout: .seconds(20)) { motorStates($0).last == [0, 0] && motorStates($0).count > 1 }
        #expect(motorStates(reports) == [[0xBF, 0x40], [0x80, 0x80], [0, 0]])
        let silence = try #require(reports.last { $0.setsMotors && $0.weakMotor == 0 && $0.strongMotor == 0 })
        #expect(silence.receivedAt.nanoseconds >= end.nanoseconds)
        let statistics = rig.scheduler.statistics
        let writes = rig.rumbler.statistics.writes
        print("hold rumble: sink writes \(writes) for 10 s (\(Double(writes) / 10) per s); "
              + "renewal margins (ms) \(margins.map { Double($0) / 1e6 }); renewals \(statistics.renewed) "
              + "(both pads), maximum renewal lateness \(statistics.maximumRenewalLateness)")
    }

    @Test func aPreparedProgramAtAnEighthOfItsRateHoldsEachLevelEightTimesItsPreparedLength() throws {
        let rig = try Rig(name: "haptics-test hold slow rate sink")
        defer { rig.close() }
        func program(_ profile: DeviceProfile) -> Program {
            Program(profileName: profile.name, commands: [
                TimedCommand(offsetNanoseconds: 0, intensity: 1, sharpness: 0.5, command: profile.command(intensity: 1, sharpness: 0.5)),
                TimedCommand(offsetNanoseconds: 100 * Self.ms, intensity: 0.5, sharpness: 0.5, command: profile.command(intensity: 0.5, sharpness: 0.5)),
                TimedCommand(offsetNanoseconds: 200 * Self.ms, intensity: 0, sharpness: 0, command: .stop),
            ], durationNanoseconds: 200_000_000, leadTimeNanoseconds: 0)
        }
        let start = rig.scheduler.clock.now().advanced(by: 100 * Self.ms)
        for (actuator, channel, profile) in [(rig.pad, rig.padChannel, rig.padProfile), (rig.rumbler, rig.rumblerChannel, rig.rumblerProfile)] {
            // Prepared at rate 1: each level's replay.length is its 100 ms hold + the 100 ms margin.
            try actuator.prepare(program(profile))
            let player = try rig.scheduler.makePlayer(program: rig.scheduler.load(program(profile)), channel: channel)
            #expect(try rig.scheduler.setRate(player, 1.0 / 8, at: start))
            #expect(rig.scheduler.start(player, at: start))
        }
        try rig.scheduler.startRealtimeThread()
        let full = rig.rumblerProfile.command(intensity: 1, sharpness: 0.5)
        let half = rig.rumblerProfile.command(intensity: 0.5, sharpness: 0.5)
        // Each level held 800 ms: played again every 150 ms (200 ms − the 50 ms lead), one write each.
        var expected: [UInputForceFeedbackEvent] = [
            .upload(Self.rumble(full, id: 0, length: 200), previous: nil),
            .upload(Self.rumble(half, id: 1, length: 200), previous: nil),
        ]
        expected += Array(repeating: .play(effectID: 0, count: 1), count: 6)  // 0, 150 … 750 ms
        expected += [.stop(effectID: 0)]
        expected += Array(repeating: .play(effectID: 1, count: 1), count: 6)  // 800, 950 … 1550 ms
        expected += [.stop(effectID: 1)]  // 1600 ms
        let records = rig.sink.waitForRecords(count: expected.count, timeout: .seconds(10))
        #expect(records.map(\.event) == expected)
        let end = start.nanoseconds + 1_600 * Self.ms
        #expect(Self.gaps(records, from: start.nanoseconds, to: end) == [])
        #expect(Self.renewalMargins(records).allSatisfy { $0 > 0 }, "renewal margins (ns): \(Self.renewalMargins(records))")

        let reports = rig.controller.waitForOutputReports(timeout: .seconds(10)) { motorStates($0).last == [0, 0] && motorStates($0).count > 1 }
        // ff-memless would end each level after 200 ms: [full, 0, half, 0] without renewals.
        #expect(motorStates(reports) == [
            Self.motorBytes(rig.padProfile.command(intensity: 1, sharpness: 0.5)),
            Self.motorBytes(rig.padProfile.command(intensity: 0.5, sharpness: 0.5)),
            [0, 0],
        ])
        let silence = try #require(reports.last { $0.setsMotors && $0.weakMotor == 0 && $0.strongMotor == 0 })
        #expect(silence.receivedAt.nanoseconds >= end)
        print("hold slow rate: renewal margins (ms) \(Self.renewalMargins(records).map { Double($0) / 1e6 })")
    }
}
