import CEvdev
import HapticsDevices
import HapticsSystem
import Testing
import HapticsVirtualDevices

/// `verifyEffects()` against the kernel's own verdicts, on uinput sinks that record every call.
@Suite(.requiresKernelTestbench, .serialized)
struct EvdevVerificationKernelTests {
    @Test func aRumblePadAcceptsTheUploadAndEraseAndIsWrittenThePlayStopAndGains() throws {
        let sink = try UInputForceFeedbackSink(.init(name: "haptics-test verify rumble", effectTypes: [UInt16(FF_RUMBLE), UInt16(FF_GAIN)],
                                                     maximumEffects: 4))
        defer { sink.close() }
        let device = try EvdevDevice(path: sink.eventNodePath)
        let results = device.verifyEffects()
        device.close()

        #expect(results == [
            EffectVerification(kind: .rumble, outcome: .accepted, accepted: [.upload, .erase], written: [.play, .stop]),
            EffectVerification(kind: .periodic, outcome: .notAdvertised),
            EffectVerification(kind: .constant, outcome: .notAdvertised),
            EffectVerification(kind: .gain, outcome: .written, written: [.halfGain, .fullGain]),
        ])
        // Each step reached the device; the kernel stops an effect before erasing it.
        let rumble = UploadedForceFeedbackEffect(type: UInt16(FF_RUMBLE), id: 0, direction: 0, replayLength: 200, replayDelay: 0,
                                                 parameters: .rumble(strongMagnitude: 0x4000, weakMagnitude: 0x4000))
        #expect(sink.waitForRecords(count: 7).map(\.event) == [
            .upload(rumble, previous: nil), .play(effectID: 0, count: 1), .stop(effectID: 0), .stop(effectID: 0),
            .erase(effectID: 0), .gain(0x8000), .gain(0xFFFF),
        ])
    }

    @Test func aPeriodicDeviceWithoutWaveformsHasItsPeriodicUploadRejectedByTheKernel() throws {
        let sink = try UInputForceFeedbackSink(.init(name: "haptics-test verify bare periodic", effectTypes: [UInt16(FF_PERIODIC)],
                                                     maximumEffects: 2))
        defer { sink.close() }
        let device = try EvdevDevice(path: sink.eventNodePath)
        // The input core adds FF_RUMBLE to a periodic device and emulates it with a sine.
        #expect(device.info.forceFeedbackCodes == [.rumble, .periodic])
        let results = device.verifyEffects()
        device.close()

        #expect(results == [
            EffectVerification(kind: .rumble, outcome: .accepted, accepted: [.upload, .erase], written: [.play, .stop]),
            // The input core refuses a waveform the device does not advertise, before the driver sees it.
            EffectVerification(kind: .periodic, outcome: .rejected(SystemCallError(call: "EVIOCSFF", errno: .invalidArgument)),
                               waveform: .sine),
            EffectVerification(kind: .constant, outcome: .notAdvertised),
            EffectVerification(kind: .gain, outcome: .notAdvertised),
        ])
        let records = sink.waitForRecords(count: 5)
        #expect(records.count == 5)
        #expect(records.dropFirst().map(\.event) == [.play(effectID: 0, count: 1), .stop(effectID: 0), .stop(effectID: 0), .erase(effectID: 0)])
        // The emulated rumble reached the device as the periodic sine it was turned into.
        guard case let .upload(effect, previous: nil) = records.first?.event,
              case let .periodic(waveform, period, _, offset, phase, _) = effect.parameters else {
            Issue.record("expected the emulated rumble's upload first, got \(records.map(\.event))")
            return
        }
        // (Its magnitude is left out: older kernels raised it to at least 0x7FFF.)
        #expect([Int(effect.type), Int(waveform), Int(period), Int(offset), Int(phase), Int(effect.replayLength)]
                == [Int(FF_PERIODIC), Int(FF_SINE), 50, 0, 0, 200])
    }
}
