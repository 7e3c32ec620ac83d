#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import HapticsAudio
import HapticsSystem

/// The two rumble motors' levels at one instant, derived from the sound heard then.
public struct MotorLevelFrame: Sendable, Hashable {
    /// When the sound these levels come from is heard, on the engine's clock.
    public var time: MonotonicInstant
    /// The low-frequency (heavy) motor, 0…1: the sound below the crossover.
    public var strong: Double
    /// The high-frequency (light) motor, 0…1: the sound above the crossover.
    public var weak: Double

    /// Creates a frame.
    public init(time: MonotonicInstant, strong: Double, weak: Double) {
        self.time = time
        self.strong = strong
        self.weak = weak
    }
}

/// Turns the audio a game is about to play into rumble motor levels as it goes, block by block:
/// live haptics from sound, the streaming side of ``SoundAnalyzer``.
///
/// Each block comes with the instant its first frame is heard (its presentation time on the
/// engine's clock), so every level it yields carries the instant of the sound it follows: in step
/// by construction, whatever the block size. The channels are mixed; a second-order crossover
/// (Butterworth, state-variable) splits the sound into the band below ``Options/crossover`` (the
/// strong motor) and above it (the weak motor); each band's peak envelope rises with
/// ``Options/attack`` and falls with ``Options/release``, and every ``Options/controlInterval`` its
/// level in dBFS plus ``Options/gain`` maps to 0…1 as the offline analysis maps loudness
/// (−48 dBFS → 0, 0 dBFS → 1).
///
/// Latency: the level at an instant reflects the sound up to that instant; a step in loudness
/// reaches 90 % of its level after about one attack time (1 ms by default), and is reported at the
/// next control instant (every 2 ms by default), so at most 5 ms after it is heard (tested).
/// `process` allocates nothing and takes no lock: it may run on an audio thread.
public struct SoundEnvelopeFollower: Sendable {
    /// How the follower reads the sound.
    public struct Options: Sendable, Hashable {
        /// Time constant of a rising envelope, seconds (0.0001…0.05; default 0.001).
        public var attack: Double = 0.001
        /// Time constant of a falling envelope, seconds (0.001…2; default 0.06).
        public var release: Double = 0.06
        /// Decibels added to the level before it maps to 0…1 (−48…48; default 0).
        public var gain: Double = 0
        /// The frequency that splits the strong motor's band from the weak one's, Hz (20…5000;
        /// default 200).
        public var crossover: Double = 200
        /// Seconds between two frames of levels (0.001…0.05; default 0.002).
        public var controlInterval: Double = 0.002

        /// The defaults.
        public init() {}
    }

    /// Frames per second of the audio.
    public let sampleRate: Int
    /// Channels per frame, interleaved.
    public let channelCount: Int
    /// The options.
    public let options: Options

    private let attackCoefficient: Double
    private let releaseCoefficient: Double
    private let ticksEvery: Int
    // The crossover's state-variable filter (topology-preserving transform).
    private let a1: Double
    private let a2: Double
    private let a3: Double
    private static let damping = 2.0.squareRoot()
    private var state1 = 0.0
    private var state2 = 0.0
    private var lowEnvelope = 0.0
    private var highEnvelope = 0.0
    /// Frames until the next control instant.
    private var untilTick = 0

    /// A follower of audio at `sampleRate` with `channelCount` interleaved channels; the rate and
    /// channels as the WAV reader accepts them, the options within their ranges (errors name them).
    public init(sampleRate: Int, channelCount: Int, options: Options = Options()) throws(SoundAnalysisError) {
        func check(_ name: String, _ value: Double, _ range: ClosedRange<Double>) throws(SoundAnalysisError) {
            guard range.contains(value) else { throw SoundAnalysisError(.invalidOption(name: name, value: value, range: range)) }
        }
        let rates = WAVReader.supportedSampleRates
        try check("sample rate", Double(sampleRate), Double(rates.lowerBound)...Double(rates.upperBound))
        try check("channel count", Double(channelCount), 1...2)
        try check("attack", options.attack, 0.0001...0.05)
        try check("release", options.release, 0.001...2)
        try check("gain", options.gain, SoundAnalysisOptions.gainRange)
        try check("crossover", options.crossover, 20...min(5_000, Double(sampleRate) / 4))
        try check("control interval", options.controlInterval, 0.001...0.05)
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.options = options
        let rate = Double(sampleRate)
        attackCoefficient = exp(-1 / (options.attack * rate))
        releaseCoefficient = exp(-1 / (options.release * rate))
        ticksEvery = max(1, Int((options.controlInterval * rate).rounded()))
        let g = tan(Double.pi * options.crossover / rate)
        a1 = 1 / (1 + g * (g + Self.damping))
        a2 = g * a1
        a3 = g * a2
    }

    /// Follows one block of interleaved samples whose first frame is heard at `presentationTime`,
    /// calling `emit` for each control instant inside the block, in order. Blocks continue one
    /// another: the next block's presentation time should be this one's plus its length.
    public mutating func process(_ samples: UnsafeBufferPointer<Float>, presentationTime: MonotonicInstant,
                                 emit: (MotorLevelFrame) -> Void) {
        let frames = samples.count / channelCount
        let scale = 1 / Double(channelCount)
        for frame in 0..<frames {
            var sum = 0.0
            for channel in 0..<channelCount { sum += Double(samples[frame * channelCount + channel]) }
            let input = sum * scale
            let v3 = input - state2
            let v1 = a1 * state1 + a2 * v3
            let v2 = state2 + a2 * state1 + a3 * v3
            state1 = 2 * v1 - state1
            state2 = 2 * v2 - state2
            let low = abs(v2)
            let high = abs(input - Self.damping * v1 - v2)
            lowEnvelope = follow(lowEnvelope, low)
            highEnvelope = follow(highEnvelope, high)
            if untilTick == 0 {
                let offset = Int64(frame) * 1_000_000_000 / Int64(sampleRate)
                emit(MotorLevelFrame(time: presentationTime.advanced(by: offset),
                                     strong: level(lowEnvelope), weak: level(highEnvelope)))
                untilTick = ticksEvery
            }
            untilTick -= 1
        }
    }

    /// Forgets the sound so far: envelopes at rest, the next frame at the next block's start.
    public mutating func reset() {
        state1 = 0
        state2 = 0
        lowEnvelope = 0
        highEnvelope = 0
        untilTick = 0
    }

    private func follow(_ envelope: Double, _ value: Double) -> Double {
        let coefficient = value > envelope ? attackCoefficient : releaseCoefficient
        return value + coefficient * (envelope - value)
    }

    private func level(_ envelope: Double) -> Double {
        guard envelope > 1e-12 else { return 0 }
        let decibels = 20 * log10(envelope) + options.gain
        return min(1, max(0, (decibels + _FrameAnalysis.dynamicRange) / _FrameAnalysis.dynamicRange))
    }
}
