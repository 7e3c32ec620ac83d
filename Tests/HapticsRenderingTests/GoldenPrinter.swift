@testable import HapticsRendering

/// Formats a program's commands as a Swift array literal, for writing golden expectations.
/// Used by hand when a golden changes on purpose; the printed list is reviewed before pasting.
func goldenLiteral(_ program: Program) -> String {
    var lines = ["["]
    for command in program.commands {
        lines.append("    \(goldenLiteral(command)),")
    }
    lines.append("]")
    return lines.joined(separator: "\n")
}

/// One timed command as `(offset, command)` source text.
func goldenLiteral(_ command: TimedCommand) -> String {
    let device: String
    switch command.command {
    case let .rumble(strong, weak): device = ".rumble(strong: \(strong), weak: \(weak))"
    case let .periodic(waveform, period, magnitude):
        device = ".periodic(waveform: .\(waveform), periodMilliseconds: \(period), magnitude: \(magnitude))"
    case let .constant(level): device = ".constant(level: \(level))"
    case .stop: device = ".stop"
    }
    return "G(\(command.offsetNanoseconds), \(device))"
}

/// A golden entry: a send offset in nanoseconds and the device command.
struct G: Equatable, CustomStringConvertible {
    var offset: Int64
    var command: ActuatorCommand
    init(_ offset: Int64, _ command: ActuatorCommand) {
        self.offset = offset
        self.command = command
    }
    var description: String { "G(\(offset), \(command))" }
}

extension Program {
    /// The commands as golden entries (offset and device command only).
    var golden: [G] { commands.map { G($0.offsetNanoseconds, $0.command) } }
}
