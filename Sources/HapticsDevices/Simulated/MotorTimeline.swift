import HapticsRendering
import HapticsSystem

/// Motor levels over time, piecewise constant: what an actuator is doing between commands.
///
/// The common input of ``TerminalPlot``, ``SVGPlot`` and ``MotorSound``. Build one from a
/// ``SimulatedDevice`` recording or from a rendered `Program`. Each command sets the whole actuator
/// state (a rumble silences a periodic effect and the other way round); `.stop` silences everything.
public struct MotorTimeline: Sendable, Hashable {
    /// Where the timeline begins, from its origin (always `.zero`: times are relative to the origin).
    public var start: Duration
    /// Where the timeline ends, from its origin (the program's duration or the last command).
    public var end: Duration
    /// The level changes, by strictly increasing `time`; the first is at `start`. Each step holds
    /// until the next one, the last until `end`.
    public var steps: [Step]
    /// The motors this timeline drives, in display order.
    public var motors: [Motor]

    /// Creates a timeline from timed commands (their `offset`s count from the timeline's origin).
    ///
    /// Commands at the same offset are applied in order, so the last one wins. Before the first
    /// command the actuator is silent; commands before offset 0 take effect at 0.
    /// - Parameters:
    ///   - commands: commands with their offsets (need not be sorted; ties keep their order).
    ///   - end: where the timeline ends; never earlier than the last command. `nil` = the last command.
    ///   - actuator: when given, its motors are always shown, even if no command drives them.
    public init(commands: [TimedCommand], end: Duration? = nil, actuator: DeviceProfile.ActuatorKind? = nil) {
        let ordered = commands.enumerated().sorted {
            ($0.element.offsetNanoseconds, $0.offset) < ($1.element.offsetNanoseconds, $1.offset)
        }.map(\.element)

        var steps = [Step(time: .zero, levels: .silent)]
        var driven = Set<Motor>(actuator.map(Motor.driven(by:)) ?? [])
        for timed in ordered {
            let levels = Levels(timed.command)
            driven.formUnion(Motor.driven(by: timed.command))
            let time = Duration.nanoseconds(max(timed.offsetNanoseconds, 0))
            if steps[steps.count - 1].time == time {
                steps[steps.count - 1].levels = levels
            } else {
                steps.append(Step(time: time, levels: levels))
            }
        }
        // Merge runs of equal levels so renderers see only real changes.
        var merged: [Step] = []
        for step in steps where merged.last?.levels != step.levels {
            merged.append(step)
        }
        self.start = .zero
        self.end = max(end ?? .zero, ordered.last.map { .nanoseconds(max($0.offsetNanoseconds, 0)) } ?? .zero)
        self.steps = merged
        self.motors = Motor.allCases.filter(driven.contains)
    }

    /// Creates the timeline a program plays, from its start to its final stop.
    public init(program: Program, actuator: DeviceProfile.ActuatorKind? = nil) {
        self.init(commands: program.commands, end: .nanoseconds(program.durationNanoseconds), actuator: actuator)
    }

    /// The levels in effect at `time` (from the origin).
    public func levels(at time: Duration) -> Levels {
        // Binary search for the last step starting at or before `time`.
        var low = 0
        var high = steps.count
        while high - low > 1 {
            let middle = (low + high) / 2
            if steps[middle].time <= time { low = middle } else { high = middle }
        }
        return steps[low].levels
    }

    /// The highest level `motor` reaches (0…1).
    public func peak(of motor: Motor) -> Double {
        steps.reduce(0) { max($0, $1.levels.value(of: motor)) }
    }

    /// The shortest and longest period of the periodic effects that play audibly, in milliseconds,
    /// or `nil` when no periodic effect plays.
    public var periodRange: ClosedRange<Int>? {
        let periods = steps.map(\.levels).filter { $0.magnitude > 0 }.map(\.periodMilliseconds)
        guard let shortest = periods.min(), let longest = periods.max() else { return nil }
        return shortest...longest
    }

    /// The timeline's length.
    public var duration: Duration { end - start }
}
