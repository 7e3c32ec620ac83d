import Testing
@testable import HapticsSystem

@Suite("CRC-32")
struct CRC32Tests {
    @Test("the checksum is CRC-32/IEEE: check value 0xCBF43926, 0 for nothing")
    func checkValue() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum([UInt8]()) == 0)
    }

    @Test("a seed byte before a buffer gives the checksum of both joined")
    func seeded() {
        let bytes: [UInt8] = [0x31, 0x00, 0x10, 0x0C, 0xFF]
        let seeded = bytes.withUnsafeBytes { CRC32.checksum(seed: 0xA2, $0) }
        #expect(seeded == CRC32.checksum([0xA2] + bytes))
        #expect(Array("123456789".utf8).dropFirst().withUnsafeBytes { CRC32.checksum(seed: UInt8(ascii: "1"), $0) } == 0xCBF4_3926)
    }
}
