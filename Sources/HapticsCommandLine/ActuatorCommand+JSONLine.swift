import HapticsMeasurement
import HapticsRendering

extension ActuatorCommand {
    /// Adds `command` and its magnitudes to a JSON line.
    func addFields(to line: inout JSONLine) {
        switch self {
        case let .rumble(strong, weak):
            line.add("command", "rumble")
            line.add("strong", Int(strong))
            line.add("weak", Int(weak))
        case let .periodic(waveform, period, magnitude):
            line.add("command", "periodic")
            line.add("waveform", "\(waveform)")
            line.add("period_ms", Int(period))
            line.add("magnitude", Int(magnitude))
        case let .constant(level):
            line.add("command", "constant")
            line.add("level", Int(level))
        case .stop:
            line.add("command", "stop")
        }
    }
}
