import Testing
@testable import HapticsVoiceCoils

/// The waveform as the pad takes it: USB frames of four 16-bit channels, Bluetooth frames of two bytes.
@Suite("Voice-coil frames")
struct VoiceCoilFramesTests {
    let waveform: [Float] = [0, 1, -1, 0.5, -0.25, 2, .nan]

    /// `convert` run over the waveform into `channels` samples a frame, each starting as 99.
    func frames<Sample: FixedWidthInteger>(
        channels: Int, _ convert: (UnsafePointer<Float>, Int, UnsafeMutablePointer<Sample>) -> Void
    ) -> [Sample] {
        var frames = [Sample](repeating: 99, count: channels * waveform.count)
        waveform.withUnsafeBufferPointer { wave in
            frames.withUnsafeMutableBufferPointer { convert(wave.baseAddress!, wave.count, $0.baseAddress!) }
        }
        return frames
    }

    @Test("USB: channels 0 and 1 silent, the sample × 32767 rounded on 2 and 3, clamped")
    func usb() {
        #expect(frames(channels: 4) { VoiceCoilFrames.usbFrames($0, count: $1, into: $2) } as [Int16] == [
            0, 0, 0, 0, 0, 0, 32767, 32767, 0, 0, -32767, -32767, 0, 0, 16384, 16384,
            0, 0, -8192, -8192, 0, 0, 32767, 32767, 0, 0, 0, 0,
        ])
    }

    @Test("Bluetooth: left, right, the sample × 127 rounded, clamped")
    func bluetooth() {
        #expect(frames(channels: 2) { VoiceCoilFrames.bluetoothFrames($0, count: $1, into: $2) } as [Int8]
            == [0, 0, 127, 127, -127, -127, 64, 64, -32, -32, 127, 127, 0, 0])
    }
}
