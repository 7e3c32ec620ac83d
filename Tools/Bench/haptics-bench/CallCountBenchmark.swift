import CBenchSupport
import CEvdev
import Glibc
import Haptics
import HapticsPatterns
import HapticsRendering
import HapticsScheduler
import HapticsSystem
import Synchronization

// `Tools/bench calls`: the instructions of one game call, counted by callgrind on the calling thread
// only (`CBenchSupport_toggleInstructionCounting`, run with `--collect-atstart=no`): from the call to
// the actuator's first `write()` ("before the write") and from the call to its return ("total").
// The actuator is `WritingActuator`: one `write()` of an `EV_FF` input event to /dev/null per
// perform, like `EvdevActuator`'s prepared trigger (the host has no evdev device to drive).

/// One `write()` of an `EV_FF` play event per perform, to a descriptor (/dev/null): the prepared
/// trigger's system call without a device. When `stopsCountingAtWrite` is set, its first perform
/// after `arm()` switches instruction counting off before writing.
final class WritingActuator: Actuator, @unchecked Sendable {
    let descriptor: Int32
    let stopsCountingAtWrite: Bool
    let armed = Atomic<Bool>(false)
    let writes = Atomic<Int>(0)

    init(descriptor: Int32, stopsCountingAtWrite: Bool) {
        self.descriptor = descriptor
        self.stopsCountingAtWrite = stopsCountingAtWrite
    }

    /// The next perform on this thread ends the counted window.
    func arm() { armed.store(true, ordering: .relaxed) }

    func perform(_ command: ActuatorCommand, channel: ChannelID, deadline: MonotonicInstant, now: MonotonicInstant) {
        if stopsCountingAtWrite && armed.exchange(false, ordering: .relaxed) { CBenchSupport_toggleInstructionCounting() }
        var event = input_event()
        event.type = UInt16(EV_FF)
        event.code = 0
        event.value = command.isSilent ? 0 : 1
        _ = withUnsafeBytes(of: &event) { write(descriptor, $0.baseAddress, $0.count) }
        writes.add(1, ordering: .relaxed)
    }
}

/// `haptics-bench calls-count SCENARIO MODE N`: N counted calls of SCENARIO (`raw-c`, `impact-1`,
/// `impact-4`, `player-1`, `pass-32`, `program-32`, `mix-32`, `curve-32`), each counted until the first write (MODE `before`) or until the call
/// returns (`total`). Prints how many calls were counted.
func runCallCount(_ arguments: [String]) {
    guard arguments.count == 3, let count = Int(arguments[2]), ["before", "total"].contains(arguments[1]) else {
        print("usage: haptics-bench calls-count raw-c|impact-1|impact-4|player-1|pass-32|program-32|mix-32|curve-32 before|total N")
        exit(64)
    }
    let untilWrite = arguments[1] == "before"
    let devNull = open("/dev/null", O_WRONLY)
    precondition(devNull >= 0, "cannot open /dev/null")
    switch arguments[0] {
    case "raw-c":
        for _ in 0..<count {
            CBenchSupport_toggleInstructionCounting()
            // The raw trigger's only work before its write is the clock reading: "before" is that.
            if untilWrite {
                var time = timespec()
                clock_gettime(CLOCK_MONOTONIC, &time)
                CBenchSupport_toggleInstructionCounting()
                _ = CBenchSupport_rawTrigger(devNull, 0, 1)
            } else {
                _ = CBenchSupport_rawTrigger(devNull, 0, 1)
                CBenchSupport_toggleInstructionCounting()
            }
        }
    case "impact-1", "impact-4":
        countImpacts(devices: arguments[0] == "impact-1" ? 1 : 4, calls: count, untilWrite: untilWrite, descriptor: devNull)
    case "player-1":
        countPlayerStarts(calls: count, untilWrite: untilWrite, descriptor: devNull)
    case "pass-32":
        countParameterPasses(channels: 32, passes: count, untilWrite: untilWrite, descriptor: devNull)
    case "program-32", "mix-32":
        countProgramPasses(channels: 32, passes: count, untilWrite: untilWrite, descriptor: devNull,
                           policy: arguments[0] == "mix-32" ? .mix : .replace)
    case "curve-32":
        countCurvePasses(channels: 32, passes: count, untilWrite: untilWrite, descriptor: devNull)
    default:
        print("haptics-bench: unknown scenario \(arguments[0])")
        exit(64)
    }
    print("counted \(count)")
}

/// A started engine (realtime thread running) on `devices` writing actuators; each counted call is
/// `impactOccurred()` of a prepared medium impact, after the previous one has ended.
private func countImpacts(devices: Int, calls: Int, untilWrite: Bool, descriptor: Int32) {
    let actuators = (0..<devices).map { _ in WritingActuator(descriptor: descriptor, stopsCountingAtWrite: untilWrite) }
    let engine = HapticEngine(outputs: actuators.enumerated().map { index, actuator in
        HapticEngine.Output(device: actuator, profile: benchRumble, name: "writer \(index)")
    })
    do { try engine.start() } catch {
        print("haptics-bench: \(error)")
        exit(1)
    }
    let generator = ImpactFeedbackGenerator(style: .medium, engine: engine)
    // The previous impact has ended after 150 ms (its stop is the realtime thread's).
    countGameCalls(calls, untilWrite: untilWrite, pause: 150_000, writer: actuators[0], what: "impact",
                   prepare: generator.prepare, call: { generator.impactOccurred() })
    engine.stop()
}

/// `calls` times: `prepare()`, a pause of `pause` µs, then the counted `call` — until `writer`'s
/// write or until it returns.
private func countGameCalls(_ calls: Int, untilWrite: Bool, pause: UInt32, writer: WritingActuator, what: String,
                            prepare: () -> Void, call: () -> PlaybackOutcome) {
    for _ in 0..<calls {
        prepare()
        usleep(pause)
        writer.arm()
        CBenchSupport_toggleInstructionCounting()
        let outcome = call()
        if !untilWrite { CBenchSupport_toggleInstructionCounting() }
        guard outcome.isScheduled else {
            print("haptics-bench: \(what) not played: \(outcome)")
            exit(1)
        }
    }
}

/// A started engine on one writing actuator; each counted call is `start()` of a prepared pattern
/// player (a transient and a 100 ms continuous event: a game's pattern file), after the previous
/// start has ended.
private func countPlayerStarts(calls: Int, untilWrite: Bool, descriptor: Int32) {
    let actuator = WritingActuator(descriptor: descriptor, stopsCountingAtWrite: untilWrite)
    let engine = HapticEngine(outputs: [HapticEngine.Output(device: actuator, profile: benchRumble, name: "writer")])
    let pattern = Pattern(events: [
        PatternEvent(kind: .hapticTransient, time: 0, parameters: EventParameters(hapticIntensity: 1, hapticSharpness: 0.6)),
        PatternEvent(kind: .hapticContinuous, time: 0.02, duration: 0.1,
                     parameters: EventParameters(hapticIntensity: 0.7, hapticSharpness: 0.3)),
    ])
    let player: HapticPatternPlayer
    do {
        try engine.start()
        player = try engine.makePlayer(pattern: pattern)
    } catch {
        print("haptics-bench: \(error)")
        exit(1)
    }
    // The previous start has ended after 200 ms (its steps and stop are the realtime thread's).
    countGameCalls(calls, untilWrite: untilWrite, pause: 200_000, writer: actuator, what: "pattern",
                   prepare: player.prepare, call: { player.start() })
    engine.stop()
}

/// A scheduler driven by hand with `channels` looping players on writing actuators (the scale
/// benchmark's work per millisecond): each counted pass is one intensity change per player, then
/// `process()`, which re-maps and writes every channel's level.
private func countParameterPasses(channels: Int, passes: Int, untilWrite: Bool, descriptor: Int32) {
    let scheduler = Scheduler(clock: SystemMonotonicClock(), configuration: SchedulerConfiguration(maximumChannels: channels))
    var players: [PlayerID] = []
    var actuators: [WritingActuator] = []
    do {
        for _ in 0..<channels {
            let actuator = WritingActuator(descriptor: descriptor, stopsCountingAtWrite: untilWrite)
            let channel = try scheduler.addChannel(output: actuator, profile: benchRumble, policy: .replace)
            let program = try scheduler.load(Program(
                profileName: benchRumble.name,
                commands: [TimedCommand(offsetNanoseconds: 0, intensity: 0.8, sharpness: 0.5, command: .rumble(strong: 0xC000, weak: 0x4000))],
                durationNanoseconds: 1000 * 1_000_000_000, leadTimeNanoseconds: 0))
            players.append(try scheduler.makePlayer(program: program, channel: channel))
            actuators.append(actuator)
        }
    } catch {
        print("haptics-bench: \(error)")
        exit(1)
    }
    for player in players { scheduler.start(player, at: scheduler.clock.now()) }
    scheduler.process()
    for pass in 0..<passes {
        let value = pass % 2 == 0 ? 0.5 : 1.0
        actuators[0].arm()
        CBenchSupport_toggleInstructionCounting()
        let now = scheduler.clock.now()
        for player in players { _ = try? scheduler.setParameter(player, .hapticIntensityControl, value: value, at: now) }
        scheduler.process()
        if !untilWrite { CBenchSupport_toggleInstructionCounting() }
    }
    let written = actuators.reduce(0) { $0 + $1.writes.load(ordering: .relaxed) }
    precondition(written == channels * (passes + 1), "expected \(channels * (passes + 1)) writes, got \(written)")
}

/// 32 players of one program that changes level every millisecond, one on each of 32 channels (the
/// scale benchmark's work per millisecond, from the programs rather than from submissions): every
/// player's next command is due at each counted pass. On `.mix` channels (`mix-32`), each level is
/// a channel's mix.
private func countProgramPasses(channels: Int, passes: Int, untilWrite: Bool, descriptor: Int32, policy: OverlapPolicy) {
    countSteppedPasses(channels: channels, passes: passes, untilWrite: untilWrite, descriptor: descriptor,
                       program: alternatingLevels(passes + 2, period: 1_000_000), policy: policy) { _, _, _ in }
}

/// The same players each holding one level under a runtime intensity curve that ticks every
/// millisecond (the profile's control interval): every curve ticks at each counted pass and
/// re-maps its player's level.
private func countCurvePasses(channels: Int, passes: Int, untilWrite: Bool, descriptor: Int32) {
    // Alternating between two values, so that every tick changes the level written.
    let curve = ParameterCurve(id: .hapticIntensityControl, time: 0, controlPoints: (0...(passes + 2)).map { tick in
        ParameterCurve.ControlPoint(time: Double(tick) / 1_000, value: tick % 2 == 0 ? 1 : 0.5)
    })
    let level = Program(
        profileName: benchRumble.name,
        commands: [TimedCommand(offsetNanoseconds: 0, intensity: 0.8, sharpness: 0.5, command: .rumble(strong: 0xC000, weak: 0x4000))],
        durationNanoseconds: 1000 * 1_000_000_000, leadTimeNanoseconds: 0)
    countSteppedPasses(channels: channels, passes: passes, untilWrite: untilWrite, descriptor: descriptor,
                       program: level, policy: .replace) { scheduler, player, start in
        guard try scheduler.setCurve(player, curve, startingAt: start) else { benchFailure("the curve was refused") }
    }
}

/// A scheduler driven by hand on a stepped clock, with a player of `program` on each of `channels`
/// writing actuators (of `policy`), started together and then given `setUp`: each counted pass is one
/// millisecond's `process()`, which must write every channel once.
private func countSteppedPasses(
    channels: Int, passes: Int, untilWrite: Bool, descriptor: Int32, program: Program, policy: OverlapPolicy,
    setUp: (Scheduler, PlayerID, MonotonicInstant) throws -> Void
) {
    let clock = SteppedClock()
    let scheduler = Scheduler(clock: clock, configuration: SchedulerConfiguration(maximumChannels: channels))
    var actuators: [WritingActuator] = []
    do {
        let loaded = try scheduler.load(program)
        let start = clock.now()
        for _ in 0..<channels {
            let actuator = WritingActuator(descriptor: descriptor, stopsCountingAtWrite: untilWrite)
            let channel = try scheduler.addChannel(output: actuator, profile: benchRumble, policy: policy)
            let player = try scheduler.makePlayer(program: loaded, channel: channel)
            scheduler.start(player, at: start)
            try setUp(scheduler, player, start)
            actuators.append(actuator)
        }
    } catch {
        print("haptics-bench: \(error)")
        exit(1)
    }
    scheduler.process()
    let before = actuators.reduce(0) { $0 + $1.writes.load(ordering: .relaxed) }
    for _ in 0..<passes {
        clock.advance(by: .milliseconds(1))
        actuators[0].arm()
        CBenchSupport_toggleInstructionCounting()
        scheduler.process()
        if !untilWrite { CBenchSupport_toggleInstructionCounting() }
    }
    let written = actuators.reduce(0) { $0 + $1.writes.load(ordering: .relaxed) } - before
    precondition(written == channels * passes, "expected \(channels * passes) writes, got \(written)")
}
