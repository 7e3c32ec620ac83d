import HapticsMeasurement
import Foundation
import Glibc
import Haptics
import HapticsAudio
import HapticsPatterns
import HapticsRendering
import Testing
@testable import HapticsCommandLine
import HapticsTestSupport

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
        let temporary = try TemporaryFolder(prefix: "haptics-sync")
        defer { temporary.remove() }
        let folder = temporary.path
        // A door slam: a 120 ms rumble and a 20 ms knock that starts with it.
        let knock = (0..<960).map { Int16(12_000 * sin(Double($0) * 2 * .pi * 300 / 48_000 + .pi / 2)) }
        try temporary.write(pcm16WAV(knock), to: "sounds/knock.wav")
        try temporary.write("""
            {"Version": 1.0, "Pattern": [
              {"Event": {"Time": 0.0, "EventType": "HapticContinuous", "EventDuration": 0.12,
                         "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 1.0}]}},
              {"Event": {"Time": 0.0, "EventType": "AudioCustom", "EventWaveformPath": "sounds/knock.wav"}}
            ]}
            """, to: "door.ahap")

        var configuration = SyncLoopbackTest.Configuration()
        configuration.playbackDevice = "hw:Loopback,0,1"
        configuration.captureDevice = "hw:Loopback,1,1"
        configuration.profile = .genericRumble
        let cues = Feedback.vocabulary.map(SyncLoopbackTest.Cue.feedback) + [.pattern(path: folder + "/door.ahap")]
        // One run: its capture recovers from an overrun or a stalled read of the emulated cable
        // (ALSACaptureStream) and keeps the frames lost out of its timeline.
        let result = try SyncLoopbackTest(configuration: configuration).run(cues)
        // The run let its capture go: a second run in the same process opens it again.
        #expect(throws: Never.self) {
            try ALSACaptureStream(device: configuration.captureDevice, sampleRate: configuration.format.sampleRate,
                                  periodFrames: configuration.format.periodFrames).close()
        }

        print("sync-loopback:")
        for line in SyncTestCommand.report(result, configuration: configuration) { print("  " + line) }
        #expect(result.hapticTiming == "kernel receipt (uinput)")
        #expect(result.missing == [])
        #expect(result.measurements.map(\.cue) == cues)
        #expect(result.streams.stallProbe?.hasPrefix("SCHED_FIFO") == true)
        var putOffByTheMachine: [String] = []
        for (index, row) in result.measurements.enumerated() {
            #expect(row.riseTime == .milliseconds(60))
            let offBy = max(row.residual, .zero - row.residual)
            // A sound late by more than one period in a cue the playback lost time in — ran dry
            // (an underrun) or found the device's position jumped on (a timing jump): the guest's
            // audio thread not run for a whole buffer — and placed a voice late itself says nothing
            // of the timing either: reported, not judged, within the same allowance.
            let soundLate = row.heard - row.onset > result.period
            if soundLate, let disturbance = result.streams.disturbances.first(where: { $0.hasPrefix("\(index + 1) ") }),
               disturbance.contains("playback underruns") || disturbance.contains("timing jumps"),
               disturbance.contains("late voices") {
                putOffByTheMachine.append("\(row.cue.name): sound late by \(row.heard - row.onset), \(disturbance)")
                continue
            }
            // A haptic late by more than one period that the whole machine stalled on for at least
            // the excess, between its due start and its arrival (the guest's processor not run by its
            // host: the probe above the engine's priority woke that late), says nothing of the engine.
            // It is reported, not judged; a few of them are allowed.
            let excess = offBy - result.period
            if excess > .zero, row.felt - row.onset >= excess, let stall = row.hapticStall, stall >= excess {
                putOffByTheMachine.append("\(row.cue.name): haptic late by \(row.felt - row.onset), machine stalled \(stall)")
                continue
            }
            // Which side was off: the haptic (felt − onset) or the sound (heard − onset).
            // What the engine's trace says of the haptic: its write late (the engine) or the device
            // late to see it.
            let write = row.hapticWrite.map { write in
                let woke = write.woke.map { ", which woke \($0 - write.deadline) after due" } ?? ""
                return "its write began \(write.lateness) after due on \(write.thread ?? "?")\(woke), the start seen \(row.hapticStart - write.began) after it began"
            } ?? "no write traced"
            #expect(offBy <= result.period,
                    "\(row.cue.name): residual \(row.residual) exceeds one period (\(result.period)): felt \(row.felt - row.onset), heard \(row.heard - row.onset) from the onset, longest machine stall on the haptic's way \(row.hapticStall.map { "\($0)" } ?? "none"), \(write)")
        }
        if !putOffByTheMachine.isEmpty { print("sync-loopback: not judged, the machine stalled: \(putOffByTheMachine)") }
        #expect(putOffByTheMachine.count <= 2, "too disturbed a run to judge: \(putOffByTheMachine)")
    }
}
}
