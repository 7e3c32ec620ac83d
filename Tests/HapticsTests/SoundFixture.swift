import Foundation
import HapticsAudio
import HapticsDevices
import HapticsRendering
import HapticsScheduler
@testable import Haptics
import HapticsSystem
import HapticsTestSupport
import Testing

/// An engine on a manual clock with simulated devices and an audio output rendering, offline and
/// deterministically, to a WAV file whose frame 0 is audible at the clock's start: a voice audible
/// at `origin + t` lands at frame round(t × 48 000).
struct SoundFixture {
    let haptics: EngineFixture
    let folder: TemporaryFolder
    let wavPath: String
    let audio: AudioOutput
    let origin: MonotonicInstant

    var engine: HapticEngine { haptics.engine }

    init(profiles: [DeviceProfile] = [.genericRumble], sink: (any AudioSink)? = nil, attach: Bool = true,
         audioConfiguration: AudioOutputConfiguration = AudioOutputConfiguration()) throws {
        haptics = EngineFixture(profiles: profiles)
        folder = try TemporaryFolder()
        origin = haptics.clock.now()
        wavPath = folder.path + "/sound.wav"
        audio = AudioOutput(sink: sink ?? WAVFileSink(path: wavPath, timing: .offline(start: origin)),
                            configuration: audioConfiguration)
        if attach { try haptics.engine.attachAudio(audio) }
    }

    /// Mixes `periods` periods of 256 frames into the sink, then closes it.
    func renderSound(periods: Int) {
        for _ in 0..<periods { audio.process() }
        audio.stop()
    }

    /// The left channel of the rendered WAV file.
    func renderedLeft() throws -> [Int16] {
        let samples = try #require(WAVReader.read(contentsOf: wavPath).pcm16Samples)
        return stride(from: 0, to: samples.count, by: 2).map { samples[$0] }
    }

    /// What the sink writes for a voice's left channel: 16-bit, clamped, rounded.
    static func pcm16Left(_ voice: AudioVoice) -> [Int16] {
        (0..<voice.frameCount).map { Int16((min(max(voice.frame($0).left, -1), 1) * 32_767).rounded()) }
    }
}
