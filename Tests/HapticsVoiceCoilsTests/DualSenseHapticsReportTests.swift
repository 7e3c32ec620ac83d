import HapticsSystem
import Testing
@testable import HapticsVoiceCoils

/// Report 0x32 byte for byte: the layout written out by hand, the CRCs computed apart from the
/// project's code (Python's `zlib.crc32` over 0xA2 and the first 138 bytes).
@Suite("DualSense Bluetooth haptics report 0x32")
struct DualSenseHapticsReportTests {
    /// The report's fixed bytes: id, sub-packet 0x11 header and data, sub-packet 0x12 header.
    static func header(sequence: UInt8, counter: UInt8) -> [UInt8] {
        [0x32, sequence << 4, 0x91, 0x07, 0xFE, 0x00, 0x00, 0x00, 0x00, 0xFF, counter, 0x92, 0x40]
    }

    @Test("a new report is silence, number 0, 142 bytes sealed with its CRC")
    func silence() {
        let expected = Self.header(sequence: 0, counter: 0) + [UInt8](repeating: 0, count: 125) + [0x96, 0x0C, 0xE2, 0x26]
        #expect(expected.count == 142)
        #expect(DualSenseHapticsReport().bytes == expected)
    }

    @Test("frames land at 13–76, the number's low nibble in byte 1's high one and its low byte at 10")
    func frames() {
        let frames = (0..<64).map { Int8($0 * 4 - 128) }
        let report = frames.withUnsafeBufferPointer { DualSenseHapticsReport(frames: $0, number: 0x1234A) }
        let expected = Self.header(sequence: 0xA, counter: 0x4A) + frames.map { UInt8(bitPattern: $0) }
            + [UInt8](repeating: 0, count: 61) + [0xD3, 0x17, 0x66, 0x3F]
        #expect(report.bytes == expected)
        #expect(report.frames == frames)
    }

    @Test("fewer frames are padded with silence, and a reused report keeps nothing of the last one")
    func reuse() {
        var report = DualSenseHapticsReport()
        let full = [Int8](repeating: -1, count: 64)
        full.withUnsafeBufferPointer { report.setFrames($0, number: 3) }
        let short: [Int8] = [5, -5, 7, -7]
        short.withUnsafeBufferPointer { report.setFrames($0, number: 17) }
        let expected = Self.header(sequence: 1, counter: 17) + [0x05, 0xFB, 0x07, 0xF9]
            + [UInt8](repeating: 0, count: 121) + [0xB6, 0xC4, 0x3B, 0xBC]
        #expect(report.bytes == expected)
        #expect(report.bytes[138...] == CRC32.checksum([0xA2] + report.bytes[..<138]).littleEndianBytes[...])
    }

    @Test("one report lasts 32 frames of 3 kHz: 10.667 ms")
    func period() {
        #expect(DualSenseHapticsReport.framesPerReport * 1_000_000_000 / VoiceCoilFrames.bluetoothSampleRate == 10_666_666)
        #expect(DualSenseHapticsReport.periodNanoseconds == 10_666_667)
    }
}

extension UInt32 {
    fileprivate var littleEndianBytes: [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: self >> (8 * $0)) } }
}
