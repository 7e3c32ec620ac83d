import Synchronization
import HapticsRendering
@testable import HapticsScheduler

/// One command as an output received it.
struct Emission: Equatable, CustomStringConvertible {
    var command: ActuatorCommand
    var channel: Int
    var deadline: Int64
    var now: Int64

    init(_ command: ActuatorCommand, channel: Int = 0, deadline: Int64, now: Int64) {
        self.command = command
        self.channel = channel
        self.deadline = deadline
        self.now = now
    }

    var description: String { "\(command)@ch\(channel) deadline \(deadline) now \(now)" }
}

/// An output that records everything it is asked to perform, in order.
final class RecordingOutput: ActuatorOutput {
    private let emissions = Mutex<[Emission]>([])

    init() {
        emissions.withLock { $0.reserveCapacity(4096) }
    }

    func perform(_ command: ActuatorCommand, channel: ChannelID, deadline: MonotonicInstant, now: MonotonicInstant) {
        emissions.withLock {
            $0.append(Emission(command, channel: channel.rawValue, deadline: deadline.nanoseconds, now: now.nanoseconds))
        }
    }

    var recorded: [Emission] { emissions.withLock { $0 } }

    /// Returns what was recorded since the last call.
    func take() -> [Emission] {
        emissions.withLock { recorded in
            defer { recorded.removeAll(keepingCapacity: true) }
            return recorded
        }
    }
}

let testRumble = DeviceProfile(
    name: "test-rumble", displayName: "Test rumble", actuator: .dualRumble,
    riseTime: 0, minimumPulse: 0, controlInterval: 10_000_000)

let testVibra = DeviceProfile(
    name: "test-vibra", displayName: "Test vibra",
    actuator: .periodic(minimumPeriodMilliseconds: 5, maximumPeriodMilliseconds: 25),
    riseTime: 0, minimumPulse: 0, controlInterval: 10_000_000)

let ms: Int64 = 1_000_000

/// A rumble program: one level per (offset, strong, weak), then `.stop` at `duration`.
func rumbleProgram(_ levels: [(Int64, UInt16, UInt16)], duration: Int64, intensity: Float = 1, sharpness: Float = 0.5) -> Program {
    var commands = levels.map { offset, strong, weak in
        TimedCommand(offset: offset, intensity: intensity, sharpness: sharpness, command: .rumble(strong: strong, weak: weak))
    }
    commands.append(TimedCommand(offset: duration, intensity: 0, sharpness: 0, command: .stop))
    return Program(profileName: "test-rumble", commands: commands, duration: duration, leadTime: 0)
}

/// A scheduler on a manual clock with one recording channel.
struct Bench {
    let clock: ManualClock
    let scheduler: Scheduler<ManualClock>
    let output: RecordingOutput
    let channel: ChannelID

    init(start: Int64 = 1_000 * 1_000_000, policy: OverlapPolicy = .replace, profile: DeviceProfile = testRumble,
         configuration: SchedulerConfiguration = .default) {
        clock = ManualClock(start: start)
        scheduler = Scheduler(clock: clock, configuration: configuration)
        output = RecordingOutput()
        channel = scheduler.addChannel(output: output, profile: profile, policy: policy)
    }

    var now: Int64 { clock.now().nanoseconds }

    func at(_ nanoseconds: Int64) -> MonotonicInstant { MonotonicInstant(nanoseconds: nanoseconds) }

    func player(_ program: Program) throws -> PlayerID {
        try scheduler.makePlayer(program: scheduler.load(program), channel: channel)
    }

    /// Advances the clock to `instant` and processes; returns the next deadline.
    @discardableResult
    func run(to instant: Int64) -> Int64? {
        clock.advance(to: MonotonicInstant(nanoseconds: instant))
        return scheduler.process()?.nanoseconds
    }

    /// Processes at every deadline the scheduler reports, up to `limit`: the way the realtime thread
    /// wakes, so `now` equals each deadline.
    func runOnDeadlines(until limit: Int64) {
        var next = scheduler.process()?.nanoseconds
        while let deadline = next, deadline <= limit {
            clock.advance(to: MonotonicInstant(nanoseconds: max(deadline, now)))
            next = scheduler.process()?.nanoseconds
        }
    }
}
