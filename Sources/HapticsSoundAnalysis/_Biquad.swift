#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One second-order section (transposed direct form II, in `Double`): the coefficients of a
/// low- or high-pass made with the bilinear transform, pre-warped so its corner lands on the
/// frequency asked for, and the section's two state values.
struct _Biquad: Sendable {
    private var b0 = 1.0, b1 = 0.0, b2 = 0.0, a1 = 0.0, a2 = 0.0
    private var s1 = 0.0, s2 = 0.0

    /// A section that passes its input unchanged.
    init() {}

    /// A low-pass (`highPass` false) or high-pass section with its corner at `corner` Hz and
    /// quality `q` (1/√2 for a second-order Butterworth), at `sampleRate`.
    init(corner: Double, q: Double, sampleRate: Double, highPass: Bool) {
        let k = tan(Double.pi * corner / sampleRate)
        let norm = 1 / (1 + k / q + k * k)
        if highPass {
            b0 = norm
            b1 = -2 * norm
        } else {
            b0 = k * k * norm
            b1 = 2 * b0
        }
        b2 = b0
        a1 = 2 * (k * k - 1) * norm
        a2 = (1 - k / q + k * k) * norm
    }

    mutating func process(_ input: Double) -> Double {
        let output = b0 * input + s1
        s1 = b1 * input - a1 * output + s2
        s2 = b2 * input - a2 * output
        return output
    }

    mutating func reset() {
        s1 = 0
        s2 = 0
    }

    /// The section's phase at `frequency` Hz, in radians.
    func phase(at frequency: Double, sampleRate: Double) -> Double {
        let w = 2 * Double.pi * frequency / sampleRate
        // H(e^jw) = (b0 + b1 e^-jw + b2 e^-2jw) / (1 + a1 e^-jw + a2 e^-2jw)
        let numeratorPhase = atan2(-b1 * sin(w) - b2 * sin(2 * w), b0 + b1 * cos(w) + b2 * cos(2 * w))
        let denominatorPhase = atan2(-a1 * sin(w) - a2 * sin(2 * w), 1 + a1 * cos(w) + a2 * cos(2 * w))
        return numeratorPhase - denominatorPhase
    }

    /// The section's group delay at `frequency` Hz, in seconds: minus the phase's slope.
    func groupDelay(at frequency: Double, sampleRate: Double) -> Double {
        let step = frequency * 1e-4
        var difference = phase(at: frequency + step, sampleRate: sampleRate) - phase(at: frequency - step, sampleRate: sampleRate)
        // Unwrap across ±π.
        if difference > Double.pi { difference -= 2 * Double.pi }
        if difference < -Double.pi { difference += 2 * Double.pi }
        return -difference / (2 * Double.pi * 2 * step)
    }
}
