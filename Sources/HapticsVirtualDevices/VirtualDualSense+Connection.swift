import HapticsSystem
import CEvdev

extension VirtualDualSense {
    /// How the virtual controller is connected: what bus the kernel sees, which report descriptor
    /// it presents and how its reports are framed.
    public enum Connection: Sendable, Hashable {
        /// USB: input report 0x01 (64 bytes), output report 0x02, feature reports without a CRC.
        case usb
        /// Bluetooth: input and output report 0x31 (78 bytes) and every feature report end in a
        /// CRC-32, which the driver checks. A uhid device on this bus is one SDL's HIDAPI backend
        /// lists: SDL 2.26 drops a hidraw node on the USB bus that has no USB device above it in
        /// sysfs, which is every uhid device.
        case bluetooth

        /// The bus given to uhid (`BUS_USB` or `BUS_BLUETOOTH`).
        var bus: UInt16 { self == .usb ? UInt16(BUS_USB) : UInt16(BUS_BLUETOOTH) }

        /// The report descriptor the controller presents on this connection.
        var reportDescriptor: [UInt8] {
            self == .usb ? VirtualDualSense.usbReportDescriptor : VirtualDualSense.bluetoothReportDescriptor
        }

        /// The input report's id and size.
        var inputReport: (id: UInt8, size: Int) { self == .usb ? (0x01, 64) : (0x31, 78) }
    }
}

extension VirtualDualSense {
    /// A feature report as sent on `connection`: over Bluetooth its last four bytes are the CRC-32
    /// of the seed 0xA3 followed by the rest of the report.
    static func framedFeatureReport(_ report: [UInt8], on connection: Connection) -> [UInt8] {
        guard connection == .bluetooth else { return report }
        return sealed(report, seed: 0xA3)
    }

    /// The input report with sequence number `sequence`: sticks centred, no button, the d-pad
    /// released, no finger on the touchpad, the sensors at rest; on Bluetooth framed with its CRC
    /// (seed 0xA1). hid-playstation and SDL read the same fields, which start after the report id
    /// over USB and one byte later over Bluetooth.
    static func inputReport(sequence: UInt8, on connection: Connection) -> [UInt8] {
        let (id, size) = connection.inputReport
        var report = [UInt8](repeating: 0, count: size)
        report[0] = id
        let fields = connection == .usb ? 1 : 2
        for stick in 0..<4 { report[fields + stick] = 0x80 }
        report[fields + 6] = sequence
        report[fields + 7] = 0x08  // d-pad hat: released
        report[fields + 32] = 0x80  // touch point 1: inactive
        report[fields + 36] = 0x80  // touch point 2: inactive
        report[fields + 52] = 0x0A  // status: discharging, battery full
        return connection == .usb ? report : sealed(report, seed: 0xA1)
    }

    /// `report` with its last four bytes replaced by the little-endian CRC-32 (IEEE, as zlib) of
    /// `seed` followed by the bytes before them: the DualSense's Bluetooth framing.
    static func sealed(_ report: [UInt8], seed: UInt8) -> [UInt8] {
        var report = report
        let end = report.count - 4
        let crc = CRC32.checksum([seed] + report[..<end])
        for index in 0..<4 { report[end + index] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(index))) }
        return report
    }
}
