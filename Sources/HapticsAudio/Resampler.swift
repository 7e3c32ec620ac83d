#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A band-limited sample-rate converter: windowed-sinc interpolation with a Kaiser window.
///
/// Each output frame is the input convolved with a sinc low-pass centred on the output instant. The
/// cut-off is the lower of the two Nyquist frequencies (times ``passband``), so downsampling does not
/// alias; the Kaiser window (``kaiserBeta``) over ``halfWidth`` zero crossings on each side keeps the
/// stop band near −80 dB. Frames before the first and after the last input frame count as silence.
/// When the ratio of the rates reduces to at most 1 024 phases (48 000/44 100 is 160/147) the filter
/// taps are computed once per phase.
public struct Resampler: Sendable, Hashable {
    /// Zero crossings of the sinc on each side of the output instant (at the lower rate).
    public var halfWidth: Int
    /// Kaiser window shape: larger values trade a wider transition band for a deeper stop band.
    public var kaiserBeta: Double
    /// The cut-off as a fraction of the lower Nyquist frequency; below 1 so the transition band
    /// ends before the Nyquist frequency.
    public var passband: Double

    /// Creates a resampler.
    public init(halfWidth: Int = 32, kaiserBeta: Double = 8.6, passband: Double = 0.95) {
        precondition(halfWidth >= 1, "a resampler needs at least one zero crossing on each side")
        self.halfWidth = halfWidth
        self.kaiserBeta = kaiserBeta
        self.passband = passband
    }

    /// Converts interleaved `samples` of `channelCount` channels from `inputRate` to `outputRate`.
    /// The output has ⌈frames × outputRate / inputRate⌉ frames; equal rates return the input.
    public func resample(_ samples: [Float], channelCount: Int, from inputRate: Int, to outputRate: Int) -> [Float] {
        precondition(channelCount > 0 && inputRate > 0 && outputRate > 0, "rates and channel count must be positive")
        if inputRate == outputRate { return samples }
        let inputFrames = samples.count / channelCount
        let divisor = Self.greatestCommonDivisor(inputRate, outputRate)
        let up = outputRate / divisor      // output frames per `down` input frames
        let down = inputRate / divisor
        let outputFrames = (inputFrames * up + down - 1) / down
        // Cut-off in cycles per input sample, relative to the input Nyquist frequency.
        let cutoff = min(1, Double(outputRate) / Double(inputRate)) * passband
        let reach = Double(halfWidth) / cutoff          // input frames on each side
        let taps = Int(reach.rounded(.up))
        let denominator = Self.besselI0(kaiserBeta)

        func weight(_ distance: Double) -> Double {
            let ratio = distance / reach
            guard abs(ratio) < 1 else { return 0 }
            let window = Self.besselI0(kaiserBeta * (1 - ratio * ratio).squareRoot()) / denominator
            let x = Double.pi * cutoff * distance
            let sinc = x == 0 ? 1 : sin(x) / x
            return cutoff * sinc * window
        }

        // One row of 2 × taps weights per phase, when the phases are few enough to tabulate.
        let tabulated = up <= 1_024
        var table = [Double]()
        if tabulated {
            table.reserveCapacity(up * 2 * taps)
            for phase in 0..<up {
                let fraction = Double(phase) / Double(up)
                for tap in 0..<2 * taps {
                    table.append(weight(fraction - Double(tap - taps + 1)))
                }
            }
        }

        var output = [Float](repeating: 0, count: outputFrames * channelCount)
        var row = [Double](repeating: 0, count: 2 * taps)
        for frame in 0..<outputFrames {
            // Output frame `frame` lies at input position frame × down / up = base + phase / up.
            let position = frame * down
            let base = position / up
            let phase = position % up
            if tabulated {
                for tap in 0..<2 * taps { row[tap] = table[phase * 2 * taps + tap] }
            } else {
                let fraction = Double(phase) / Double(up)
                for tap in 0..<2 * taps { row[tap] = weight(fraction - Double(tap - taps + 1)) }
            }
            let first = base - taps + 1
            let low = max(0, -first)
            let high = min(2 * taps, inputFrames - first)
            guard low < high else { continue }
            for channel in 0..<channelCount {
                var sum = 0.0
                for tap in low..<high {
                    sum += row[tap] * Double(samples[(first + tap) * channelCount + channel])
                }
                output[frame * channelCount + channel] = Float(sum)
            }
        }
        return output
    }

    /// The modified Bessel function of the first kind, order 0 (power series; converges fast for
    /// the window's arguments).
    static func besselI0(_ x: Double) -> Double {
        var sum = 1.0
        var term = 1.0
        let quarter = x * x / 4
        var k = 1.0
        while term > sum * 1e-17 {
            term *= quarter / (k * k)
            sum += term
            k += 1
        }
        return sum
    }

    static func greatestCommonDivisor(_ a: Int, _ b: Int) -> Int {
        var (a, b) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return a
    }
}
