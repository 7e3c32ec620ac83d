import HapticsAudio
import HapticsScheduler
import HapticsSystem

/// A sound device that plays `periods` periods and is then unplugged (`ENODEV`), as an ALSA device
/// reports it. The real ALSA path is exercised in the kernel tests; here only the loss matters.
final class UnpluggedSink: AudioSink, @unchecked Sendable {
    let format = AudioStreamFormat()
    private let periods: Int
    private var writes = 0

    init(after periods: Int) { self.periods = periods }

    func open() throws(AudioSinkError) -> AudioTimestamp? {
        AudioTimestamp(framesWritten: 0, delayFrames: 0, instant: MonotonicInstant(nanoseconds: 1_000_000_000))
    }

    func write(_ frames: UnsafePointer<Float>) -> AudioSinkWrite {
        writes += 1
        guard writes <= periods else { return AudioSinkWrite(status: .deviceLost(errno: .operationNotSupportedByDevice), timestamp: nil) }
        let written = Int64(writes * format.periodFrames)
        return AudioSinkWrite(status: .written, timestamp: AudioTimestamp(
            framesWritten: written, delayFrames: 0,
            instant: MonotonicInstant(nanoseconds: 1_000_000_000) + format.duration(ofFrames: written)))
    }

    func close() {}
}
