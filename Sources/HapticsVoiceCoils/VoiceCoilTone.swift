#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How a haptic event sounds on a voice-coil actuator: the tone a sharpness maps to and the shape
/// of a transient.
///
/// Sharpness sets the frequency on an exponential scale, from ``lowestFrequency`` (sharpness 0,
/// a soft thud) to ``highestFrequency`` (sharpness 1, a crisp tick), so equal steps of sharpness
/// are equal musical intervals: 0.5 gives √(80 × 300) ≈ 155 Hz. Both ends lie inside what the
/// DualSense's coils render well (their response falls off below about 50 Hz and above about
/// 500 Hz) and below the Nyquist frequency of the Bluetooth stream (1.5 kHz at 3 kHz).
///
/// Intensity sets the amplitude linearly: intensity 1 is full scale, 0.5 half of it.
public enum VoiceCoilTone {
    /// The frequency at sharpness 0, in hertz.
    public static let lowestFrequency = 80.0
    /// The frequency at sharpness 1, in hertz.
    public static let highestFrequency = 300.0
    /// How many cycles of its tone a transient lasts: 3 cycles under a Hann window, 37.5 ms at
    /// sharpness 0 and 10 ms at sharpness 1.
    public static let transientCycles = 3.0

    /// The frequency for `sharpness` (clamped to 0…1), in hertz.
    public static func frequency(sharpness: Double) -> Double {
        let clamped = sharpness == sharpness ? min(max(sharpness, 0), 1) : 0
        return lowestFrequency * pow(highestFrequency / lowestFrequency, clamped)
    }

    /// How long a transient of `sharpness` lasts, in seconds.
    public static func transientDuration(sharpness: Double) -> Double {
        transientCycles / frequency(sharpness: sharpness)
    }
}
