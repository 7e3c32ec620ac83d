/// CRC-32 as zlib and Ethernet compute it (IEEE 802.3: reflected polynomial 0xEDB88320, initial
/// and final xor 0xFFFFFFFF). The DualSense ends every Bluetooth report in one, over a seed byte
/// followed by the report.
package enum CRC32 {
    /// The checksum of `bytes`. The check value of the ASCII text `123456789` is 0xCBF43926.
    package static func checksum<Bytes: Sequence>(_ bytes: Bytes) -> UInt32 where Bytes.Element == UInt8 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = update(crc, byte) }
        return ~crc
    }

    /// The checksum of `seed` followed by `bytes`, without joining them into a new array.
    package static func checksum(seed: UInt8, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var crc = update(0xFFFF_FFFF, seed)
        for byte in bytes { crc = update(crc, byte) }
        return ~crc
    }

    /// Seals a Bluetooth report in place: the checksum of `seed` followed by all but the last four
    /// bytes of `report`, stored little-endian in those four. Does not allocate.
    package static func seal(_ report: UnsafeMutableRawBufferPointer, seed: UInt8) {
        let end = report.count - 4
        let crc = checksum(seed: seed, UnsafeRawBufferPointer(rebasing: report[..<end]))
        for index in 0..<4 { report[end + index] = UInt8(truncatingIfNeeded: crc >> UInt32(8 * index)) }
    }

    /// `crc` after one more byte, bit by bit: the reports are short, a table would be 1 KiB for nothing.
    @inline(__always)
    private static func update(_ crc: UInt32, _ byte: UInt8) -> UInt32 {
        var crc = crc ^ UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        return crc
    }
}
