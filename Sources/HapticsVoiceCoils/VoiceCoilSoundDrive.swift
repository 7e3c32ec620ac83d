import HapticsSoundAnalysis
import HapticsSystem

/// Live haptics from sound on one DualSense's voice coils: the audio a game is about to play,
/// shaped into the actuators' drive signal (``VoiceCoilShaper``) and fed to its HD haptics
/// (``DualSenseHDHaptics/feed(_:at:)``) at the stream's rate, 48 kHz over USB, 3 kHz over
/// Bluetooth.
///
/// ```swift
/// let haptics = try DualSenseHDHaptics(eventNode: "/dev/input/event5")
/// let drive = try VoiceCoilSoundDrive(haptics: haptics, sampleRate: 48_000, channelCount: 2)
/// drive.feed(block, presentationTime: heardAt)   // on the audio thread, block by block
/// ```
///
/// Each block comes with the instant its first frame is heard on the engine's clock; every drive
/// sample is fed with the instant of the sound it comes from, so the actuators move with the sound
/// by construction, late by the shaper's ``latency`` only (about 1 ms). Feed the sound when it is
/// queued for output, ahead by at least the card's buffer over USB (3 ms: the stream writes each
/// frame that long before it plays) and a report over Bluetooth (10.7 ms): drive samples whose
/// frame the stream has written already are not played. The drive
/// is added to a pattern playing on the pad. ``feed(_:presentationTime:gain:)`` allocates nothing
/// and takes no lock: call it, and ``stop()``, from one thread, the game's audio thread.
public final class VoiceCoilSoundDrive {
    /// The pad it drives.
    public let haptics: DualSenseHDHaptics
    private var shaper: VoiceCoilShaper
    private let scratch: UnsafeMutableBufferPointer<Float>
    /// Input frames per shaped chunk: what fits the scratch buffer.
    private let chunkFrames: Int

    /// A drive for `haptics` from sound at `sampleRate` with `channelCount` interleaved channels
    /// (1 or 2); `options` tune the shaper. Errors name the rate, channel count or option out of
    /// its range.
    public init(haptics: DualSenseHDHaptics, sampleRate: Int, channelCount: Int,
                options: VoiceCoilShaper.Options = .init()) throws(SoundAnalysisError) {
        self.haptics = haptics
        shaper = try VoiceCoilShaper(sampleRate: sampleRate, channelCount: channelCount, outputRate: haptics.driveSampleRate,
                                     options: options)
        scratch = .allocate(capacity: 1_024)
        scratch.initialize(repeating: 0)
        chunkFrames = max(1, 1_023 * sampleRate / haptics.driveSampleRate)
    }

    deinit {
        scratch.deallocate()
    }

    /// Frames per second of the sound.
    public var sampleRate: Int { shaper.sampleRate }
    /// Channels per frame of the sound.
    public var channelCount: Int { shaper.channelCount }
    /// How late the drive follows its sound: the shaper's filters' group delay at the band's
    /// centre, in seconds.
    public var latency: Double { shaper.latency }

    /// Shapes one block of interleaved samples whose first frame is heard at `presentationTime`
    /// and feeds the drive samples it yields to the pad, each at the instant of its sound, scaled
    /// by `gain` (0…1: the engine's and the device's gain; 0 feeds silence and keeps the shaper
    /// following the sound). Blocks continue one another. Returns `false` when the pad's queue was
    /// full and drive samples were dropped.
    @discardableResult
    public func feed(_ samples: UnsafeBufferPointer<Float>, presentationTime: MonotonicInstant, gain: Float = 1) -> Bool {
        let scale = gain == gain ? min(max(gain, 0), 1) : 0
        let channels = shaper.channelCount
        let inRate = Int64(shaper.sampleRate)
        let outRate = Int64(shaper.outputRate)
        let frames = samples.count / channels
        var fed = true
        var start = 0
        while start < frames {
            let count = min(chunkFrames, frames - start)
            let firstInput = shaper.inputFramesRead
            let firstOutput = shaper.nextOutputFrame
            let chunk = UnsafeBufferPointer(rebasing: samples[(start * channels)..<((start + count) * channels)])
            let written = shaper.process(chunk, into: scratch)
            if written > 0 {
                if scale != 1 { for index in 0..<written { scratch[index] *= scale } }
                // Output frame k stands for input position k × in / out: its offset from this
                // chunk's first frame, in nanoseconds.
                let offset = (firstOutput * inRate - firstInput * outRate) * 1_000_000_000 / (inRate * outRate)
                let heard = presentationTime.nanoseconds + Int64(start) * 1_000_000_000 / inRate + offset
                fed = haptics.feed(UnsafeBufferPointer(rebasing: scratch[..<written]), at: MonotonicInstant(nanoseconds: heard)) && fed
            }
            start += count
        }
        return fed
    }

    /// Stops the drive: the drive samples fed to the pad are discarded (a pattern playing on it
    /// goes on) and the shaper forgets the sound; the next block starts afresh. Call it from the
    /// thread that feeds.
    public func stop() {
        shaper.reset()
        haptics.discardFedSamples()
    }
}
