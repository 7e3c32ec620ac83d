import HapticsSystem
import Testing
@testable import HapticsVirtualDevices

/// The Bluetooth framing of the virtual DualSense, checked without a kernel: what the driver and
/// SDL verify (CRC-32 with a per-direction seed byte) and where the fields sit.
@Suite("DualSense Bluetooth framing")
struct DualSenseBluetoothFramingTests {
    @Test("a sealed report ends in the little-endian CRC of its seed and the bytes before")
    func sealing() {
        let sealed = VirtualDualSense.sealed([0x09, 1, 2, 3, 0, 0, 0, 0], seed: 0xA3)
        let crc = CRC32.checksum([0xA3, 0x09, 1, 2, 3])
        #expect(Array(sealed[..<4]) == [0x09, 1, 2, 3])
        #expect(Array(sealed[4...]) == [UInt8(crc & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 24)])
    }

    @Test("feature reports carry a CRC over Bluetooth and none over USB")
    func featureReports() {
        let report = [UInt8](repeating: 7, count: 20)
        #expect(VirtualDualSense.framedFeatureReport(report, on: .usb) == report)
        let framed = VirtualDualSense.framedFeatureReport(report, on: .bluetooth)
        #expect(Array(framed[..<16]) == Array(report[..<16]))
        #expect(framed == VirtualDualSense.sealed(framed, seed: 0xA3))
    }

    @Test("an input report at rest: sticks centred, d-pad released, no touch, framed per connection")
    func inputReports() {
        let usb = VirtualDualSense.inputReport(sequence: 3, on: .usb)
        #expect(usb.count == 64)
        #expect(Array(usb[0...9]) == [0x01, 0x80, 0x80, 0x80, 0x80, 0, 0, 3, 0x08, 0])
        #expect([usb[33], usb[37], usb[53]] == [0x80, 0x80, 0x0A])
        let bluetooth = VirtualDualSense.inputReport(sequence: 3, on: .bluetooth)
        #expect(bluetooth.count == 78)
        #expect(Array(bluetooth[0...10]) == [0x31, 0, 0x80, 0x80, 0x80, 0x80, 0, 0, 3, 0x08, 0])
        #expect(bluetooth == VirtualDualSense.sealed(bluetooth, seed: 0xA1))
    }

    @Test("the driver's Bluetooth output report sets the motors after its tag; SDL's layout does not count")
    func outputReports() {
        var bytes = [UInt8](repeating: 0, count: 78)
        bytes[0] = 0x31
        bytes[2] = 0x10
        bytes[3] = 0x02
        bytes[5] = 0x40
        bytes[6] = 0x80
        let driver = DualSenseOutputReport(bytes: bytes, receivedAt: MonotonicInstant(nanoseconds: 0))
        #expect(driver.setsMotors)
        #expect([driver.weakMotor, driver.strongMotor] == [0x40, 0x80])
        // SDL writes 0x31 with 0x02 in byte 1 and its flags from byte 2 on, with no tag.
        bytes[1] = 0x02
        bytes[2] = 0x02
        let sdl = DualSenseOutputReport(bytes: bytes, receivedAt: MonotonicInstant(nanoseconds: 0))
        #expect(!sdl.setsMotors)
        #expect([sdl.weakMotor, sdl.strongMotor] == [0, 0])
    }
}
