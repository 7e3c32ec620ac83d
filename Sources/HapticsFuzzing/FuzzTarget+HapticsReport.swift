import HapticsPatterns
import HapticsSystem
import HapticsVoiceCoils

extension FuzzTarget {
    /// The voice-coil waveform renderer and the Bluetooth haptics report encoder of
    /// `HapticsVoiceCoils`: the input read as haptic events (7 bytes each: kind, time, duration,
    /// intensity, sharpness, attack, release), rendered at 3 kHz and packed into reports 0x32.
    ///
    /// Beyond not crashing: every sample lies in −1…1 and is zero from the renderer's frame count
    /// on; every report is 142 bytes with the fixed header, the sequence nibble and counter of its
    /// number, exactly the frames it was given (silence after the last) and a CRC-32 over 0xA2 and
    /// the report that matches a second computation.
    public static let hapticsReport = FuzzTarget(
        name: "haptics-report",
        summary: "voice-coil renderer and Bluetooth report 0x32 (HapticsVoiceCoils): events → 3 kHz waveform → reports",
        seedSources: [.files(folder: "Tests/FuzzSeeds/haptics-report", suffix: "")],
        body: { input, _ in checkHapticsReport(input) })

    static func checkHapticsReport(_ input: [UInt8]) {
        var events: [PatternEvent] = []
        var offset = 0
        while offset + 7 <= input.count && events.count < 8 {
            let field = { (index: Int) in Double(input[offset + index]) / 255 }
            events.append(PatternEvent(
                kind: input[offset] & 1 == 0 ? .hapticTransient : .hapticContinuous,
                time: field(1) * 0.1, duration: field(2) * 0.1,
                parameters: EventParameters(
                    hapticIntensity: field(3) * 1.2 - 0.1, hapticSharpness: field(4) * 1.2 - 0.1,
                    attackTime: field(5) * 0.1, releaseTime: field(6) * 0.1, sustained: input[offset] & 2 == 0)))
            offset += 7
        }
        var parameters: [DynamicParameter] = []
        for (index, byte) in input[offset...].prefix(4).enumerated() {
            parameters.append(DynamicParameter(
                id: index % 2 == 0 ? .hapticIntensityControl : .hapticSharpnessControl,
                time: Double(index) * 0.05, value: Double(byte) / 127.5 - 1))
        }
        let pattern = Pattern(events: events, parameters: parameters)
        var renderer = WaveformRenderer(pattern, sampleRate: VoiceCoilFrames.bluetoothSampleRate)
        let frames = Int(renderer.frameCount) + 40
        var waveform = [Float](repeating: .nan, count: frames)
        waveform.withUnsafeMutableBufferPointer { renderer.render(from: 0, into: $0) }
        precondition(waveform.allSatisfy { $0 >= -1 && $0 <= 1 }, "a sample outside −1…1")
        precondition(waveform[Int(renderer.frameCount)...].allSatisfy { $0 == 0 }, "sound after the frame count")

        var samples = [Int8](repeating: 0, count: 2 * frames)
        waveform.withUnsafeBufferPointer { wave in
            samples.withUnsafeMutableBufferPointer { VoiceCoilFrames.bluetoothFrames(wave.baseAddress!, count: frames, into: $0.baseAddress!) }
        }
        var report = DualSenseHapticsReport()
        let perReport = 2 * DualSenseHapticsReport.framesPerReport
        for (number, start) in stride(from: 0, to: samples.count, by: perReport).enumerated() {
            let chunk = Array(samples[start..<min(start + perReport, samples.count)])
            let reportNumber = UInt32(truncatingIfNeeded: number &* 37)
            chunk.withUnsafeBufferPointer { report.setFrames($0, number: reportNumber) }
            let bytes = report.bytes
            precondition(bytes.count == 142, "a report of \(bytes.count) bytes")
            precondition(bytes[0] == 0x32 && bytes[2...9] == [0x91, 7, 0xFE, 0, 0, 0, 0, 0xFF] && bytes[11...12] == [0x92, 64],
                         "the header changed")
            precondition(bytes[1] == UInt8(reportNumber & 0x0F) << 4, "wrong sequence nibble")
            precondition(bytes[10] == UInt8(truncatingIfNeeded: reportNumber), "wrong counter")
            precondition(report.frames == chunk + [Int8](repeating: 0, count: perReport - chunk.count), "frames changed")
            precondition(bytes[77..<138].allSatisfy { $0 == 0 }, "padding is not zero")
            let crc = CRC32.checksum([0xA2] + bytes[..<138])
            precondition(bytes[138...].elementsEqual((0..<4).map { UInt8(truncatingIfNeeded: crc >> (8 * $0)) }), "wrong CRC")
        }
    }
}
