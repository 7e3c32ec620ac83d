#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The voice of `AudioContinuous` events: a tone whose pitch, brightness, volume and pan may change
/// at every sample.
///
/// - **Pitch** −1…1 maps to ``baseFrequency`` × 2^pitch: one octave either way, 220–880 Hz around
///   A4 (440 Hz) by default. The phase runs on continuously when the pitch moves, so glides do not click.
/// - **Timbre**: the fundamental plus harmonics 2…``harmonicCount`` with amplitude brightness / k
///   (a band-limited sawtooth at brightness 1, a pure sine at 0), divided by the sum of the
///   amplitudes so the peak never exceeds the volume.
/// - **Pan** −1…1 is equal-power: left cos θ, right sin θ with θ = (pan + 1) π / 4.
/// - **Declick**: the first and last ``declick`` seconds fade in and out linearly, on top of the
///   event's own envelope, so a tone never starts or stops with a step.
public struct ToneSynthesizer: Sendable, Hashable {
    /// The frequency at pitch 0, in hertz.
    public var baseFrequency: Double
    /// The highest harmonic (1 = a pure sine whatever the brightness).
    public var harmonicCount: Int
    /// Length of the fade at each end, in seconds.
    public var declick: Double

    /// The most harmonics a tone voice takes (``harmonicCount``): 64. A tone is synthesized on the
    /// audio thread as it plays, and each harmonic costs a sine per sample.
    public static let maximumHarmonicCount = 64

    /// Creates a synthesizer.
    public init(baseFrequency: Double = 440, harmonicCount: Int = 6, declick: Double = 0.002) {
        self.baseFrequency = baseFrequency
        self.harmonicCount = harmonicCount
        self.declick = declick
    }

    /// The frequency of `pitch` (clamped to −1…1), in hertz.
    public func frequency(pitch: Double) -> Double {
        baseFrequency * pow(2, min(max(pitch, -1), 1))
    }

    /// The mono waveform value at `phase` (in cycles) for `brightness` 0…1, before volume: −1…1.
    public func waveform(phase: Double, brightness: Double) -> Double {
        let angle = 2 * Double.pi * phase
        var sum = sin(angle)
        var total = 1.0
        if brightness > 0, harmonicCount > 1 {
            for harmonic in 2...harmonicCount {
                let amplitude = brightness / Double(harmonic)
                sum += amplitude * sin(Double(harmonic) * angle)
                total += amplitude
            }
        }
        return sum / total
    }

    /// The left and right gains of equal-power `pan` (clamped to −1…1).
    public static func panGains(_ pan: Double) -> (left: Double, right: Double) {
        let theta = (min(max(pan, -1), 1) + 1) * Double.pi / 4
        return (cos(theta), sin(theta))
    }

    /// The fade applied at both ends of a tone of `duration` seconds, at `time`.
    func declickGain(at time: Double, duration: Double) -> Double {
        guard declick > 0 else { return 1 }
        return min(1, max(0, time / declick), max(0, (duration - time) / declick))
    }
}
