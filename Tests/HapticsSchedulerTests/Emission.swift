import HapticsRendering

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
