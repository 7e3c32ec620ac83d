import CEvdev
import Glibc
import HapticsSystem
import Testing
@testable import HapticsDevices

/// `verifyEffects()` on the host, on the write end of a pipe standing in for an event node: every
/// `write()` can be read back, every ioctl fails with `ENOTTY` unless the mocking seam forces another
/// errno. What a driver accepts is proven by the kernel tests.
@Suite struct EvdevVerificationTests {
    static let path = "/dev/input/event9"

    /// A device advertising `codes` whose descriptor is a pipe's write end; returns the read end too.
    static func makeDevice(_ codes: Set<ForceFeedbackCode>) throws -> (EvdevDevice, FileDescriptor) {
        let pipe = try PipeBackedDevice(path: path, codes: codes)
        return (pipe.device, pipe.reader)
    }

    static func writtenEvents(_ reader: FileDescriptor) -> [[Int32]] { PipeBackedDevice.writtenEvents(reader) }

    @Test func typesTheDeviceDoesNotAdvertiseAreNotTried() throws {
        let (device, reader) = try Self.makeDevice([.gain])
        defer { try? reader.close() }
        let results = device.verifyEffects()
        #expect(results.map(\.kind) == [.rumble, .periodic, .constant, .gain])
        #expect(results.prefix(3).map(\.outcome) == [.notAdvertised, .notAdvertised, .notAdvertised])
        #expect(results.prefix(3).map(\.summary) == ["not advertised", "not advertised", "not advertised"])
        #expect(results.prefix(3).allSatisfy { $0.accepted.isEmpty && $0.written.isEmpty && $0.waveform == nil })
    }

    @Test func theGainIsWrittenAtHalfThenFullAndOnlyCalledWritten() throws {
        let (device, reader) = try Self.makeDevice([.rumble, .gain])
        defer { try? reader.close() }
        let gain = device.verifyEffect(.gain)
        #expect(gain == EffectVerification(kind: .gain, outcome: .written, written: [.halfGain, .fullGain]))
        #expect(gain.summary == "half gain and full gain written")
        #expect(Self.writtenEvents(reader) == [[Int32(EV_FF), Int32(FF_GAIN), 0x8000], [Int32(EV_FF), Int32(FF_GAIN), 0xFFFF]])
    }

    @Test func aRefusedUploadIsRejectedWithItsCallAndNothingIsPlayed() throws {
        let (device, reader) = try Self.makeDevice([.rumble, .constant])
        defer { try? reader.close() }
        let refused = SystemCallError(call: "EVIOCSFF", errno: .inappropriateIOCTLForDevice)
        #expect(device.verifyEffect(.rumble) == EffectVerification(kind: .rumble, outcome: .rejected(refused)))
        #expect(device.verifyEffect(.constant).summary == "rejected: EVIOCSFF: ENOTTY (Inappropriate ioctl for device)")
        #expect(Self.writtenEvents(reader) == [])
    }

    @Test func periodicUsesTheFirstAdvertisedWaveformAndSineWhenNoneIs() throws {
        let (square, squareReader) = try Self.makeDevice([.periodic, .triangle, .square])
        let (bare, bareReader) = try Self.makeDevice([.periodic])
        defer { for reader in [squareReader, bareReader] { try? reader.close() } }
        #expect(square.verifyEffect(.periodic).waveform == .square)
        // Without an advertised waveform the upload is still made, so the kernel says what it thinks.
        #expect(bare.verifyEffect(.periodic) == EffectVerification(
            kind: .periodic, outcome: .rejected(SystemCallError(call: "EVIOCSFF", errno: .inappropriateIOCTLForDevice)), waveform: .sine))
    }

    #if DEBUG
    @Test func aLostDeviceRejectsTheGainAtTheFirstWrite() throws {
        let (device, reader) = try Self.makeDevice([.gain])
        defer { try? reader.close() }
        let driver = SystemCallMocking.Driver()
        driver.force(.operationNotSupportedByDevice, on: "write")
        let gain = SystemCallMocking.withDriver(driver) { device.verifyEffect(.gain) }
        #expect(gain == EffectVerification(kind: .gain, outcome: .rejected(SystemCallError(call: "write", errno: .operationNotSupportedByDevice))))
        #expect(driver.records.map(\.call) == ["write"])
        #expect(Self.writtenEvents(reader) == [])
    }
    #endif

    @Test func summariesSayWhatTheDriverAcceptedAndWhatWasOnlyWritten() {
        let effect = EffectVerification(kind: .rumble, outcome: .accepted, accepted: [.upload, .erase], written: [.play, .stop])
        #expect(effect.summary == "upload and erase accepted; play and stop written")
        let lost = EffectVerification(kind: .rumble, outcome: .rejected(SystemCallError(call: "write", errno: .operationNotSupportedByDevice)),
                                      accepted: [.upload], written: [])
        #expect(lost.summary == "rejected: write: ENODEV (No such device)")
        #expect(EffectVerification.Step.allCases.map(\.call) == ["EVIOCSFF", "write", "write", "EVIOCRMFF", "write", "write"])
        #expect(EffectVerification.Step.allCases.filter(\.isAnsweredByDriver) == [.upload, .erase])
    }
}
