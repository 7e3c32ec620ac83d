import HapticsMeasurement
import HapticsDevices
import HapticsRendering
import HapticsSystem

/// The motors as they are driven, on one terminal line redrawn while a pattern plays on the
/// simulated device: what the drawing after it shows, as it happens.
struct LiveMotorLine {
    /// How often the line is redrawn.
    static let interval: Duration = .milliseconds(33)
    /// Bar width per motor.
    static let width = 20

    /// The levels (0…1) of the last command at or before `now`: the motors' state then.
    static func levels(_ recording: [RecordedCommand], at now: MonotonicInstant) -> (strong: Double, weak: Double) {
        guard let last = recording.last(where: { $0.time <= now }) else { return (0, 0) }
        switch last.command {
        case let .rumble(strong, weak): return (Double(strong) / 65_535, Double(weak) / 65_535)
        case let .periodic(_, _, magnitude): return (Double(abs(Int(magnitude))) / 32_767, 0)
        case let .constant(level): return (Double(abs(Int(level))) / 32_767, 0)
        case .stop: return (0, 0)
        }
    }

    /// `\r▶ +120 ms  strong ████████░░░░  weak ██░░░░░░░░` (then the rest of the line cleared).
    static func format(strong: Double, weak: Double, elapsed: Duration) -> String {
        func bar(_ level: Double) -> String {
            let filled = Int((min(max(level, 0), 1) * Double(width)).rounded())
            return String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        }
        let time = JSONLine.number(elapsed.inMilliseconds, digits: 0)
        return "\r▶ +\(time) ms  strong \(bar(strong))  weak \(bar(weak))\u{1B}[K"
    }

    /// Erases the line, before the drawing that follows it.
    static let clear = "\r\u{1B}[K"
}
