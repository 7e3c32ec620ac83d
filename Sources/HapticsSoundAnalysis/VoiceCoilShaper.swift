#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import HapticsAudio

/// Turns the audio a game is about to play into the signal that drives voice-coil actuators (the
/// DualSense's HD haptics), block by block: live haptics from sound for pads that take waveforms.
///
/// ```swift
/// var shaper = try VoiceCoilShaper(sampleRate: 48_000, channelCount: 2, outputRate: 3_000)
/// let count = shaper.process(block, into: drive)   // drive: room for maximumOutputFrames(…)
/// ```
///
/// The chain, sample by sample at the sound's rate, then at the output rate:
/// 1. The channels are mixed (their mean).
/// 2. A band-pass keeps what the actuators render: a second-order Butterworth high-pass at the
///    band's lower bound, then a low-pass at its upper bound (``Options/band``, 50…500 Hz by
///    default: the coils' response falls off below about 50 Hz and above about 500 Hz).
/// 3. When the output rate is lower than the sound's (3 kHz for Bluetooth), an anti-alias filter:
///    a fourth-order Butterworth low-pass at 0.4 × the output rate.
/// 4. Slow gain control: a peak envelope (instant rise, 20 ms fall) is smoothed again with
///    ``Options/gainAttack`` and ``Options/gainRelease``; the gain brings that level to
///    ``Options/level``, boosting by ``Options/maximumGain`` at most. The gain moves over tens of
///    milliseconds to seconds, much slower than the sound's own envelope, so a quiet sound and a
///    loud one are both felt, each keeping its shape: the gain does not follow each hit (no
///    pumping). It starts at 1 (0 dB) and holds still while the sound is silent (below
///    ``gateLevel``), so a hit after a pause plays at the gain the sound before it set, not boosted
///    by the silence.
/// 5. Resampling to the output rate by linear interpolation between two input frames; output frame
///    *k* stands for the instant *k* / output rate after the first input frame.
/// 6. Soft saturation: a smooth curve (tanh's [3/2] Padé form, `x (27 + x²) / (27 + 9 x²)`,
///    flat from ±3 on) with a slope of 1 at 0, bounded by ±1: the output never exceeds 1.
///
/// Latency: the filters' group delay at the band's centre (``latency``; 1.0 ms with the default
/// band at 48 kHz, 1.3 ms with the anti-alias filter for 3 kHz). Block sizes do not matter: the
/// output is the same sample for sample whichever way the sound is cut (tested).
/// ``process(_:into:)`` allocates nothing and takes no lock: it may run on an audio thread.
public struct VoiceCoilShaper: Sendable {
    /// How the shaper reads the sound.
    public struct Options: Sendable, Hashable {
        /// The band the actuators render, Hz: the band-pass's corners (the lower bound 10 Hz or more,
        /// the upper at least an octave higher and at most 0.45 × the lower of the two rates;
        /// default 50…500).
        public var band: ClosedRange<Double> = 50...500
        /// The level, in dBFS, the gain control brings the drive's envelope to before saturation
        /// (−40…0; default −6).
        public var level: Double = -6
        /// The most the gain control boosts a quiet sound, dB (0…60; default 30). 0 leaves quiet
        /// sounds as they are and only tames loud ones.
        public var maximumGain: Double = 30
        /// Time constant of the gain control's level rising, seconds (0.005…1; default 0.02).
        public var gainAttack: Double = 0.02
        /// Time constant of the gain control's level falling, seconds (0.05…10; default 1).
        public var gainRelease: Double = 1

        /// The defaults.
        public init() {}
    }

    /// Frames per second of the sound.
    public let sampleRate: Int
    /// Channels per frame of the sound, interleaved (1 or 2).
    public let channelCount: Int
    /// Frames per second of the drive signal.
    public let outputRate: Int
    /// The options.
    public let options: Options
    /// The filters' group delay at the band's centre (the geometric mean of its bounds), in
    /// seconds: how late the drive signal follows the sound it comes from.
    public let latency: Double

    private var highPass: _Biquad
    private var lowPass: _Biquad
    private var antiAlias1: _Biquad
    private var antiAlias2: _Biquad
    private let peakFall: Double
    private let gainRise: Double
    private let gainFall: Double
    private let targetLevel: Double
    private let largestGain: Double
    private var peak = 0.0
    private var level: Double
    /// The last gained frame (the one before the frame being read), for interpolation.
    private var previous = 0.0
    /// Input frames read, and the next output frame to write.
    private var inputFrames: Int64 = 0
    private var outputFrames: Int64 = 0

    /// A shaper of sound at `sampleRate` (a rate the WAV reader accepts) with `channelCount`
    /// interleaved channels (1 or 2), writing a drive signal at `outputRate` (1 kHz…384 kHz:
    /// 48,000 for the DualSense over USB, 3,000 over Bluetooth). Errors name the value out of range.
    public init(sampleRate: Int, channelCount: Int, outputRate: Int, options: Options = Options()) throws(SoundAnalysisError) {
        func check(_ name: String, _ value: Double, _ range: ClosedRange<Double>) throws(SoundAnalysisError) {
            guard range.contains(value) else { throw SoundAnalysisError(.invalidOption(name: name, value: value, range: range)) }
        }
        let rates = WAVReader.supportedSampleRates
        try check("sample rate", Double(sampleRate), Double(rates.lowerBound)...Double(rates.upperBound))
        try check("channel count", Double(channelCount), 1...2)
        try check("output rate", Double(outputRate), 1_000...384_000)
        let slowest = Double(min(sampleRate, outputRate))
        try check("band's lower bound", options.band.lowerBound, 10...slowest * 0.225)
        try check("band's upper bound", options.band.upperBound, 20...slowest * 0.45)
        guard options.band.upperBound >= 2 * options.band.lowerBound else { throw SoundAnalysisError(.bandTooNarrow(options.band)) }
        try check("level", options.level, -40...0)
        try check("maximum gain", options.maximumGain, 0...60)
        try check("gain attack", options.gainAttack, 0.005...1)
        try check("gain release", options.gainRelease, 0.05...10)
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.outputRate = outputRate
        self.options = options
        let rate = Double(sampleRate)
        let butterworth = 1 / 2.0.squareRoot()
        highPass = _Biquad(corner: options.band.lowerBound, q: butterworth, sampleRate: rate, highPass: true)
        lowPass = _Biquad(corner: options.band.upperBound, q: butterworth, sampleRate: rate, highPass: false)
        if outputRate < sampleRate {
            // A fourth-order Butterworth as two sections: Q = 1 / (2 cos(π/8)) and 1 / (2 cos(3π/8)).
            let corner = 0.4 * Double(outputRate)
            antiAlias1 = _Biquad(corner: corner, q: 1 / (2 * cos(Double.pi / 8)), sampleRate: rate, highPass: false)
            antiAlias2 = _Biquad(corner: corner, q: 1 / (2 * cos(3 * Double.pi / 8)), sampleRate: rate, highPass: false)
        } else {
            antiAlias1 = _Biquad()
            antiAlias2 = _Biquad()
        }
        peakFall = exp(-1 / (0.02 * rate))
        gainRise = exp(-1 / (options.gainAttack * rate))
        gainFall = exp(-1 / (options.gainRelease * rate))
        targetLevel = pow(10, options.level / 20)
        level = targetLevel
        largestGain = pow(10, options.maximumGain / 20)
        let centre = (options.band.lowerBound * options.band.upperBound).squareRoot()
        latency = [highPass, lowPass, antiAlias1, antiAlias2].reduce(0) { $0 + $1.groupDelay(at: centre, sampleRate: rate) }
    }

    /// The band-passed sound's peak level (−60 dBFS) below which the gain control counts it as
    /// silence and holds its gain.
    public static let gateLevel = 0.001

    /// The most output frames ``process(_:into:)`` writes for `inputFrames` frames of sound.
    public func maximumOutputFrames(inputFrames: Int) -> Int {
        inputFrames * outputRate / sampleRate + 1
    }

    /// The output frame ``process(_:into:)`` writes next: frame *k* stands for the instant
    /// *k* / ``outputRate`` after the first frame of sound read since the start (or a reset).
    public var nextOutputFrame: Int64 { outputFrames }
    /// How many frames of sound have been read since the start (or a reset).
    public var inputFramesRead: Int64 { inputFrames }

    /// Shapes one block of interleaved samples (blocks continue one another) and writes the drive
    /// samples it completes into `output`, which has room for ``maximumOutputFrames(inputFrames:)``;
    /// returns how many it wrote. The first one written is frame ``nextOutputFrame`` as it was
    /// before the call. Samples that are not numbers count as silence.
    public mutating func process(_ samples: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>) -> Int {
        let frames = samples.count / channelCount
        precondition(output.count >= maximumOutputFrames(inputFrames: frames),
                     "room for \(output.count) drive samples, \(maximumOutputFrames(inputFrames: frames)) needed")
        let inRate = Int64(sampleRate)
        let outRate = Int64(outputRate)
        let scale = 1 / Double(channelCount)
        var written = 0
        for frame in 0..<frames {
            var sum = 0.0
            for channel in 0..<channelCount {
                let sample = Double(samples[frame * channelCount + channel])
                if sample.isFinite { sum += sample }
            }
            var value = lowPass.process(highPass.process(sum * scale))
            value = antiAlias2.process(antiAlias1.process(value))
            let magnitude = abs(value)
            peak = max(magnitude, peak * peakFall)
            if peak > Self.gateLevel { level = peak + (peak > level ? gainRise : gainFall) * (level - peak) }
            let gain = level * largestGain > targetLevel ? targetLevel / level : largestGain
            let gained = value * gain
            // Output frames at input positions in (n − 1, n]: between the previous frame and this one.
            let n = inputFrames
            while outputFrames * inRate <= n * outRate {
                let fraction = Double(outputFrames * inRate - (n - 1) * outRate) / Double(outRate)
                output[written] = Float(Self.saturate(previous + fraction * (gained - previous)))
                written += 1
                outputFrames += 1
            }
            previous = gained
            inputFrames += 1
        }
        return written
    }

    /// Forgets the sound so far: filters at rest, the gain back to 1, the next block read as the first.
    public mutating func reset() {
        highPass.reset()
        lowPass.reset()
        antiAlias1.reset()
        antiAlias2.reset()
        peak = 0
        level = targetLevel
        previous = 0
        inputFrames = 0
        outputFrames = 0
    }

    /// The soft saturation: `x (27 + x²) / (27 + 9 x²)` within ±3, ±1 beyond; odd, smooth (its
    /// slope is 0 at ±3), 1 at 0's slope.
    static func saturate(_ x: Double) -> Double {
        guard x < 3 else { return 1 }
        guard x > -3 else { return -1 }
        let square = x * x
        return x * (27 + square) / (27 + 9 * square)
    }
}
