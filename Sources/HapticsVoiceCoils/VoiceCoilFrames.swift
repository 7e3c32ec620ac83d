/// How the DualSense's two voice-coil actuators take their samples, and the conversions from a
/// rendered waveform (``WaveformRenderer``) to those frames. Both actuators play the same waveform:
/// a pattern has no left and right.
public enum VoiceCoilFrames {
    /// Over USB: the pad's sound card, 48 kHz, four channels of signed 16-bit samples, of which
    /// channels 2 and 3 (0-based) drive the left and right actuators and 0–1 (the headphone jack
    /// and the speaker) stay silent.
    public static let usbSampleRate = 48_000
    /// Channels per USB frame.
    public static let usbChannels = 4
    /// The USB channel of the left actuator.
    public static let usbLeftChannel = 2
    /// The USB channel of the right actuator.
    public static let usbRightChannel = 3
    /// Over Bluetooth: report 0x32, 3 kHz, two channels (left, right) of signed 8-bit samples.
    public static let bluetoothSampleRate = 3_000
    /// Channels per Bluetooth frame.
    public static let bluetoothChannels = 2

    /// Writes `count` USB frames (`4 × count` samples) from `waveform`: its value × 32767, rounded,
    /// on channels 2 and 3, zero on 0 and 1.
    public static func usbFrames(_ waveform: UnsafePointer<Float>, count: Int, into frames: UnsafeMutablePointer<Int16>) {
        for index in 0..<count {
            let sample = Int16((clamped(waveform[index]) * 32767).rounded())
            let frame = frames + index * usbChannels
            frame[0] = 0
            frame[1] = 0
            frame[usbLeftChannel] = sample
            frame[usbRightChannel] = sample
        }
    }

    /// Writes `count` Bluetooth frames (`2 × count` bytes: left, right) from `waveform`: its
    /// value × 127, rounded, as signed bytes.
    public static func bluetoothFrames(_ waveform: UnsafePointer<Float>, count: Int, into frames: UnsafeMutablePointer<Int8>) {
        for index in 0..<count {
            let sample = Int8((clamped(waveform[index]) * 127).rounded())
            frames[2 * index] = sample
            frames[2 * index + 1] = sample
        }
    }

    private static func clamped(_ value: Float) -> Float {
        value == value ? min(max(value, -1), 1) : 0
    }
}
