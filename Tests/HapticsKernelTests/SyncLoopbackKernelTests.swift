import Foundation
import Glibc
import Haptics
import HapticsAudio
import HapticsPatterns
import HapticsRendering
import Testing
@testable import HapticsCommandLine

extension EngineKernelTests {
/// Sound and haptics land together, in a real kernel: the vocabulary's cues and an AHAP file with
/// `AudioCustom` sound are played through the engine — haptics on a uinput device with the generic
/// rumble profile (60 ms rise time), sound through the engine's ALSA sink into snd-aloop — and each
/// sound's onset, captured on the far end of the cable, is compared with the kernel's receipt time
/// of the haptic start plus the rise time.
///
/// Loopback subdevice 1 is used, so the audio suite (subdevice 0) may run meanwhile.
@Suite struct SyncLoopback {
    @Test func everyCueIsHeardWithinOneAudioPeriodOfWhenItIsFelt() throws {
        try #require(access("/proc/asound/Loopback", F_OK) == 0, "snd-aloop is not loaded: no Loopback card")
        let folder = NSTemporaryDirectory() + "haptics-sync-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder + "/sounds", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // A door slam: a 120 ms rumble and a 20 ms knock that starts with it.
        let knock = (0..<960).map { Int16(12_000 * sin(Double($0) * 2 * .pi * 300 / 48_000 + .pi / 2)) }
        try Data(SyncLoopback.monoWAV(knock)).write(to: URL(fileURLWithPath: folder + "/sounds/knock.wav"))
        try Data("""
            {"Version": 1.0, "Pattern": [
              {"Event": {"Time": 0.0, "EventType": "HapticContinuous", "EventDuration": 0.12,
                         "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 1.0}]}},
              {"Event": {"Time": 0.0, "EventType": "AudioCustom", "EventWaveformPath": "sounds/knock.wav"}}
            ]}
            """.utf8).write(to: URL(fileURLWithPath: folder + "/door.ahap"))

        var configuration = SyncLoopbackTest.Configuration()
        configuration.playbackDevice = "hw:Loopback,0,1"
        configuration.captureDevice = "hw:Loopback,1,1"
        configuration.profile = .genericRumble
        let cues = Feedback.vocabulary.map(SyncLoopbackTest.Cue.feedback) + [.pattern(path: folder + "/door.ahap")]
        let result = try SyncLoopbackTest(configuration: configuration).run(cues)

        print("sync-loopback:")
        for line in SyncTestCommand.report(result, configuration: configuration) { print("  " + line) }
        #expect(result.hapticTiming == "kernel receipt (uinput)")
        #expect(result.missing == [])
        #expect(result.measurements.map(\.cue) == cues)
        for row in result.measurements {
            #expect(row.residual <= result.period && .zero - row.residual <= result.period,
                    "\(row.cue.name): residual \(row.residual) exceeds one period (\(result.period))")
            #expect(row.riseTime == .milliseconds(60))
        }
    }

    /// 16-bit mono 48 kHz WAV bytes of `samples`.
    static func monoWAV(_ samples: [Int16]) -> [UInt8] {
        func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
        func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) } }
        let data = samples.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)] }
        var bytes = Array("RIFF".utf8) + le32(UInt32(36 + data.count)) + Array("WAVE".utf8)
        bytes += Array("fmt ".utf8) + le32(16) + le16(1) + le16(1) + le32(48_000) + le32(96_000) + le16(2) + le16(16)
        bytes += Array("data".utf8) + le32(UInt32(data.count)) + data
        return bytes
    }
}
}
