import HapticsAudio
import HapticsSystem

/// A sink standing for a sound card that takes rewinds, as ALSA describes a `hw:` playback
/// stream: a ring buffer of `bufferFrames` between the hardware pointer (the next frame the device
/// takes) and the application pointer (the next frame written). `rewindable()` is the frames
/// between them (`snd_pcm_rewindable`), `rewind(n)` moves the application pointer back by at most
/// that many (`snd_pcm_rewind`) and a write into a full buffer waits for the device to take a
/// period, which here it does at once, in order, into `played`. Readings say frame `p` becomes
/// audible at `origin + p / rate`, taken when the device takes it (no delay beyond the buffer).
final class RewindingCard: AudioSink, @unchecked Sendable {
    let format: AudioStreamFormat
    let origin: MonotonicInstant
    /// Interleaved frames the device took, in the order it took them.
    private(set) var played: [Float] = []
    private var ring: [Float]
    private(set) var applicationPointer: Int64 = 0
    private(set) var hardwarePointer: Int64 = 0

    init(origin: MonotonicInstant, periodCount: Int) {
        format = AudioStreamFormat(sampleRate: 48_000, periodFrames: 48, periodCount: periodCount, sampleFormat: .signed16, channelCount: 4)
        self.origin = origin
        ring = [Float](repeating: .nan, count: 4 * format.bufferFrames)
    }

    func open() throws(AudioSinkError) -> AudioTimestamp? {
        AudioTimestamp(framesWritten: 0, delayFrames: 0, instant: origin)
    }

    func write(_ period: UnsafePointer<Float>) -> AudioSinkWrite {
        let periodFrames = Int64(format.periodFrames)
        let room = Int64(format.bufferFrames) - (applicationPointer - hardwarePointer)
        if room < periodFrames { take(periodFrames - room) }
        for frame in 0..<Int(periodFrames) {
            let slot = Int((applicationPointer + Int64(frame)) % Int64(format.bufferFrames))
            for channel in 0..<4 { ring[4 * slot + channel] = period[4 * frame + channel] }
        }
        applicationPointer += periodFrames
        return AudioSinkWrite(status: .written, timestamp: AudioTimestamp(
            framesWritten: applicationPointer, delayFrames: applicationPointer - hardwarePointer,
            instant: origin + .nanoseconds(hardwarePointer * 1_000_000_000 / 48_000)))
    }

    /// The device takes `frames` frames from the hardware pointer on (at most what is written).
    func take(_ frames: Int64) {
        let count = min(frames, applicationPointer - hardwarePointer)
        for frame in 0..<count {
            let slot = Int((hardwarePointer + frame) % Int64(format.bufferFrames))
            played.append(contentsOf: ring[(4 * slot)..<(4 * slot + 4)])
        }
        hardwarePointer += count
    }

    /// Frames the device takes just before the `n`th reading of ``rewindable()`` answers (keyed by
    /// `n`, from 1): a device that moves on while the writer works.
    var takesBeforeReading: [Int: Int64] = [:]
    private var readings = 0

    func rewindable() -> Int64 {
        readings += 1
        if let frames = takesBeforeReading[readings] { take(frames) }
        return applicationPointer - hardwarePointer
    }

    /// The device's time: when the frame at the hardware pointer is audible.
    var now: MonotonicInstant { origin + .nanoseconds(hardwarePointer * 1_000_000_000 / 48_000) }

    func rewind(_ frames: Int64) -> Int64 {
        let taken = max(0, min(frames, rewindable()))
        applicationPointer -= taken
        return taken
    }

    func close() {}

    /// Channel `channel` of every frame the device took.
    func channel(_ channel: Int) -> [Float] { stride(from: channel, to: played.count, by: 4).map { played[$0] } }
}
