import Foundation
import HapticsAudio
import HapticsDevices
import HapticsRendering
import HapticsScheduler
@testable import Haptics

/// An engine on a manual clock with simulated devices and an audio output rendering, offline and
/// deterministically, to a WAV file whose frame 0 is audible at the clock's start: a voice audible
/// at `origin + t` lands at frame round(t × 48 000).
struct SoundFixture {
    let haptics: EngineFixture
    let folder: SoundTestFolder
    let wavPath: String
    let audio: AudioOutput
    let origin: MonotonicInstant

    var engine: HapticEngine { haptics.engine }

    init(profiles: [DeviceProfile] = [.genericRumble], sink: (any AudioSink)? = nil, attach: Bool = true) throws {
        haptics = EngineFixture(profiles: profiles)
        folder = try SoundTestFolder()
        origin = haptics.clock.now()
        wavPath = folder.path + "/sound.wav"
        audio = AudioOutput(sink: sink ?? WAVFileSink(path: wavPath, timing: .offline(start: origin)))
        if attach { try haptics.engine.attachAudio(audio) }
    }

    /// Mixes `periods` periods of 256 frames into the sink, then closes it.
    func renderSound(periods: Int) {
        for _ in 0..<periods { audio.process() }
        audio.stop()
    }

    /// The left channel of the rendered WAV file.
    func renderedLeft() throws -> [Int16] {
        let samples = try WAVReader.read(contentsOf: wavPath).samples
        return stride(from: 0, to: samples.count, by: 2).map { samples[$0] }
    }

    /// What the sink writes for a voice's left channel: 16-bit, clamped, rounded.
    static func pcm16Left(_ voice: AudioVoice) -> [Int16] {
        (0..<voice.frameCount).map { Int16((min(max(voice.frame($0).left, -1), 1) * 32_767).rounded()) }
    }
}

/// A fresh temporary folder, removed by `remove()`.
struct SoundTestFolder {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("haptics-sound-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func write(_ bytes: [UInt8], to name: String) throws {
        let url = URL(fileURLWithPath: path + "/" + name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// 16-bit mono 48 kHz WAV bytes of `samples`.
func monoWAV(_ samples: [Int16]) -> [UInt8] {
    func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) } }
    let data = samples.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)] }
    var bytes = Array("RIFF".utf8) + le32(UInt32(36 + data.count)) + Array("WAVE".utf8)
    bytes += Array("fmt ".utf8) + le32(16) + le16(1) + le16(1) + le32(48_000) + le32(96_000) + le16(2) + le16(16)
    bytes += Array("data".utf8) + le32(UInt32(data.count)) + data
    return bytes
}

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
        guard writes <= periods else { return AudioSinkWrite(status: .deviceLost(errno: 19), timestamp: nil) }
        let written = Int64(writes * format.periodFrames)
        return AudioSinkWrite(status: .written, timestamp: AudioTimestamp(
            framesWritten: written, delayFrames: 0,
            instant: MonotonicInstant(nanoseconds: 1_000_000_000 + format.nanoseconds(frames: written))))
    }

    func close() {}
}
