import HapticsAudio
import HapticsTriggers

/// Why HD haptics cannot play on a pad: its hidraw node, its sound card, or the card's stream.
public enum HDHapticsError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The pad is not a DualSense or DualSense Edge on USB or Bluetooth, or its hidraw node failed.
    case node(TriggerDeviceError)
    /// Over USB: the pad's sound card was not found, or the one named does not exist.
    case soundCard(VoiceCoilDeviceError)
    /// Over USB: the card could not be opened as the actuators need it (4 channels, 48 kHz).
    case stream(AudioSinkError)

    /// The underlying error's line.
    public var description: String {
        switch self {
        case .node(let error): error.description
        case .soundCard(let error): error.description
        case .stream(let error): error.description
        }
    }
}
