import HapticsSystem
import Testing
@testable import HapticsTriggers

/// The output reports, byte for byte: the layout's offsets worked out by hand.
@Suite("DualSense trigger reports")
struct DualSenseTriggerReportTests {
    let feedback: [UInt8] = [0x21, 0xF8, 0x03, 0x00, 0x48, 0x92, 0x24, 0, 0, 0, 0]
    let weapon: [UInt8] = [0x25, 0x44, 0x00, 0x07, 0, 0, 0, 0, 0, 0, 0]

    @Test("USB report 0x02: both trigger bits and nothing else flagged, right at 11–21, left at 22–32")
    func usb() throws {
        let report = DualSenseTriggerReport(
            transport: .usb, left: try .weapon(start: 2, end: 6, strength: 8), right: try .feedback(zone: 3, strength: 5)
        )
        var expected = [UInt8](repeating: 0, count: 63)
        expected[0] = 0x02
        expected[1] = 0x0C
        expected[11..<22] = feedback[...]
        expected[22..<33] = weapon[...]
        #expect(report.bytes == expected)
    }

    @Test("a trigger left out keeps its enable bit and its bytes clear")
    func oneTrigger() {
        let report = DualSenseTriggerReport(transport: .usb, left: nil, right: .off)
        var expected = [UInt8](repeating: 0, count: 63)
        expected[0] = 0x02
        expected[1] = 0x04
        expected[11] = 0x05
        #expect(report.bytes == expected)
    }

    @Test("Bluetooth report 0x31: sequence, tag 0x10, fields 2 bytes later, CRC-32 over 0xA2 and the report")
    func bluetooth() throws {
        var report = DualSenseTriggerReport(
            transport: .bluetooth, left: try .weapon(start: 2, end: 6, strength: 8), right: try .feedback(zone: 3, strength: 5),
            sequence: 3
        )
        var expected = [UInt8](repeating: 0, count: 78)
        expected[0] = 0x31
        expected[1] = 0x30
        expected[2] = 0x10
        expected[3] = 0x0C
        expected[13..<24] = feedback[...]
        expected[24..<35] = weapon[...]
        // zlib.crc32(bytes([0xA2]) + the 74 bytes above) = 0x44070992, stored little-endian.
        expected[74..<78] = [0x92, 0x09, 0x07, 0x44]
        #expect(report.bytes == expected)

        report.setSequence(0)
        var reset = [UInt8](repeating: 0, count: 78)
        reset[0] = 0x31
        reset[2] = 0x10
        reset[3] = 0x04
        reset[13] = 0x05
        reset[74..<78] = [0x15, 0x09, 0x99, 0xAC]  // zlib.crc32 of 0xA2 and this report: 0xAC990915.
        #expect(DualSenseTriggerReport(transport: .bluetooth, left: nil, right: .off).bytes == reset)
        #expect(report.bytes[1] == 0x00)
        #expect(report.bytes[74...] == CRC32.checksum([0xA2] + report.bytes[..<74]).littleEndianBytes[...])
    }
}

extension UInt32 {
    fileprivate var littleEndianBytes: [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: self >> (8 * $0)) } }
}
