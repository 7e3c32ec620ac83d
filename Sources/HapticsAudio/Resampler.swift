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
///
/// The filter's weights are computed once, into a table of at most ``maximumTableSize`` weights,
/// never per output frame. When the ratio of the rates reduces to few enough phases (48 000/44 100
/// is 160/147: 160 phases) the table holds the exact weights of every phase. Otherwise (44 101 →
/// 48 000 has 48 000 phases) it holds the filter at evenly spaced fractions of an input frame —
/// as many rows as fit, which is 2¹⁷ / ``halfWidth`` points per zero crossing whatever the rates
/// (4 096 at the default 32) — and each output frame interpolates linearly between the two nearest
/// rows, within 10⁻⁶ of the exact weight.
/// Either way an output frame costs a fixed number of multiply-adds per channel: 2 × the filter's
/// reach, which the supported rates (``supportedRates``, 96 : 1 at most) bound.
public struct Resampler: Sendable, Hashable {
    /// Zero crossings of the sinc on each side of the output instant (at the lower rate), 1 to
    /// ``maximumHalfWidth``.
    public var halfWidth: Int
    /// Kaiser window shape: larger values trade a wider transition band for a deeper stop band.
    public var kaiserBeta: Double
    /// The cut-off as a fraction of the lower Nyquist frequency, ½ to 1; below 1 so the transition
    /// band ends before the Nyquist frequency.
    public var passband: Double

    /// The rates the converter takes, in and out: ``WAVReader/supportedSampleRates`` (4–384 kHz).
    public static var supportedRates: ClosedRange<Int> { WAVReader.supportedSampleRates }

    /// The most zero crossings on each side: 256 (the default 32 is already near −80 dB).
    public static let maximumHalfWidth = 256

    /// The most weights the filter table holds: 2¹⁸ (2 MiB of `Double`s), whatever the rates.
    public static let maximumTableSize = 1 << 18

    /// Creates a resampler.
    public init(halfWidth: Int = 32, kaiserBeta: Double = 8.6, passband: Double = 0.95) {
        self.halfWidth = halfWidth
        self.kaiserBeta = kaiserBeta
        self.passband = passband
        checkShape()
    }

    /// Converts interleaved `samples` of `channelCount` channels from `inputRate` to `outputRate`,
    /// both within ``supportedRates``. The output has ⌈frames × outputRate / inputRate⌉ frames;
    /// equal rates return the input.
    public func resample(_ samples: [Float], channelCount: Int, from inputRate: Int, to outputRate: Int) -> [Float] {
        precondition(channelCount > 0, "a resampler needs at least one channel")
        precondition(Self.supportedRates.contains(inputRate) && Self.supportedRates.contains(outputRate),
                     "sample rates \(inputRate) → \(outputRate) Hz: the resampler converts between \(Self.supportedRates) Hz")
        checkShape()
        if inputRate == outputRate { return samples }
        let inputFrames = samples.count / channelCount
        let divisor = Self.greatestCommonDivisor(inputRate, outputRate)
        let up = outputRate / divisor      // output frames per `down` input frames
        let down = inputRate / divisor
        let outputFrames = (inputFrames * up + down - 1) / down
        let filter = Filter(self, inputRate: inputRate, outputRate: outputRate, phases: up)

        var output = [Float](repeating: 0, count: outputFrames * channelCount)
        let width = filter.width
        var row = [Double](repeating: 0, count: width)
        for frame in 0..<outputFrames {
            // Output frame `frame` lies at input position frame × down / up = base + phase / up.
            let position = frame * down
            let base = position / up
            let phase = position % up
            filter.weights(phase: phase, of: up, into: &row)
            let first = base - filter.taps + 1
            let low = max(0, -first)
            let high = min(width, inputFrames - first)
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

    /// How many weights the filter table for `inputRate` → `outputRate` holds (at most
    /// ``maximumTableSize``).
    public func tableSize(from inputRate: Int, to outputRate: Int) -> Int {
        precondition(Self.supportedRates.contains(inputRate) && Self.supportedRates.contains(outputRate),
                     "sample rates \(inputRate) → \(outputRate) Hz: the resampler converts between \(Self.supportedRates) Hz")
        checkShape()
        guard inputRate != outputRate else { return 0 }
        let up = outputRate / Self.greatestCommonDivisor(inputRate, outputRate)
        return Filter(self, inputRate: inputRate, outputRate: outputRate, phases: up).table.count
    }

    private func checkShape() {
        precondition((1...Self.maximumHalfWidth).contains(halfWidth),
                     "a resampler has 1 to \(Self.maximumHalfWidth) zero crossings on each side, not \(halfWidth)")
        precondition(passband >= 0.5 && passband <= 1, "a resampler's passband is ½ to 1 of the Nyquist frequency, not \(passband)")
        precondition(kaiserBeta.isFinite && kaiserBeta >= 0 && kaiserBeta <= 50, "a Kaiser β is 0 to 50, not \(kaiserBeta)")
    }

    /// The filter's weights, tabulated once: the exact rows of every phase, or rows at evenly
    /// spaced fractions of an input frame to interpolate between.
    struct Filter {
        /// Input frames on each side of the output instant.
        let taps: Int
        /// Weights per row: 2 × ``taps``.
        let width: Int
        /// Rows of the table, less one when interpolating (the last row closes the interval).
        let rows: Int
        /// Whether row `p` is phase `p` exactly (else rows are fractions `p / rows`).
        let exact: Bool
        let shape: Shape
        let table: [Double]

        init(_ resampler: Resampler, inputRate: Int, outputRate: Int, phases: Int) {
            // Cut-off in cycles per input sample, relative to the input Nyquist frequency.
            let cutoff = min(1, Double(outputRate) / Double(inputRate)) * resampler.passband
            let reach = Double(resampler.halfWidth) / cutoff          // input frames on each side
            taps = Int(reach.rounded(.up))
            width = 2 * taps
            let shape = Shape(cutoff: cutoff, reach: reach, beta: resampler.kaiserBeta)
            self.shape = shape
            // Bounded reach (rates and half-width are bounded) leaves room for at least two rows.
            let capacity = Resampler.maximumTableSize / width
            exact = phases <= capacity
            rows = exact ? phases : capacity - 1
            let stored = exact ? rows : rows + 1
            var table = [Double]()
            table.reserveCapacity(stored * width)
            for row in 0..<stored {
                let fraction = Double(row) / Double(rows)
                for tap in 0..<width {
                    table.append(shape.weight(fraction - Double(tap - taps + 1)))
                }
            }
            self.table = table
        }

        /// The weights of output phase `phase` of `phases` into `row`.
        @inline(__always)
        func weights(phase: Int, of phases: Int, into row: inout [Double]) {
            if exact {
                for tap in 0..<width { row[tap] = table[phase * width + tap] }
                return
            }
            let position = Double(phase) / Double(phases) * Double(rows)
            let index = min(Int(position), rows - 1)
            let t = position - Double(index)
            let lower = index * width
            let upper = lower + width
            for tap in 0..<width {
                let a = table[lower + tap]
                row[tap] = a + (table[upper + tap] - a) * t
            }
        }
    }

    /// The windowed sinc itself: its weight at a distance (in input frames) from the output instant.
    struct Shape {
        /// Cut-off in cycles per input sample, relative to the input Nyquist frequency.
        let cutoff: Double
        /// Input frames on each side where the window ends.
        let reach: Double
        let beta: Double
        let denominator: Double

        init(cutoff: Double, reach: Double, beta: Double) {
            self.cutoff = cutoff
            self.reach = reach
            self.beta = beta
            denominator = Resampler.besselI0(beta)
        }

        func weight(_ distance: Double) -> Double {
            let ratio = distance / reach
            guard abs(ratio) < 1 else { return 0 }
            let window = Resampler.besselI0(beta * (1 - ratio * ratio).squareRoot()) / denominator
            let x = Double.pi * cutoff * distance
            let sinc = x == 0 ? 1 : sin(x) / x
            return cutoff * sinc * window
        }
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
