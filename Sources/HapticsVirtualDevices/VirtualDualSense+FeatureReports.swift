extension VirtualDualSense {
    /// Feature report 0x09, pairing information (20 bytes): the MAC address in bytes 1–6, least
    /// significant byte first. The driver refuses a second device with the same address.
    func pairingReport() -> [UInt8] {
        var report = [UInt8](repeating: 0, count: 20)
        report[0] = 0x09
        report.replaceSubrange(1...6, with: macAddress)
        return report
    }

    /// Feature report 0x20, firmware information (64 bytes): hardware version (le32 at 24),
    /// firmware version (le32 at 28) and the update version (le16 at 44), which decides the layout
    /// of the driver's rumble reports (see ``DualSenseOutputReport/setsMotors``).
    func firmwareReport() -> [UInt8] {
        var report = [UInt8](repeating: 0, count: 64)
        report[0] = 0x20
        // The controller puts its build date and time in bytes 1–19 as text.
        report.replaceSubrange(1...19, with: Array("Jan 01 202412:00:00".utf8))
        Self.store(hardwareVersion, as: UInt32.self, at: 24, in: &report)
        Self.store(firmwareVersion, as: UInt32.self, at: 28, in: &report)
        Self.store(UInt32(firmwareUpdateVersion), as: UInt16.self, at: 44, in: &report)
        return report
    }

    /// Feature report 0x05, IMU calibration (41 bytes), all little-endian int16: gyro biases
    /// (pitch, yaw, roll at 1, 3, 5), gyro plus/minus per axis (7…17), gyro speed plus/minus
    /// (19, 21), accelerometer plus/minus per axis (23…33). Values of a plausible, centred sensor:
    /// zero bias and symmetric ranges, so the driver's divisions are well defined.
    func calibrationReport() -> [UInt8] {
        var report = [UInt8](repeating: 0, count: 41)
        report[0] = 0x05
        let values: [Int16] = [
            0, 0, 0,  // gyro bias: pitch, yaw, roll
            8_192, -8_192, 8_192, -8_192, 8_192, -8_192,  // gyro plus/minus: pitch, yaw, roll
            540, 540,  // gyro speed plus, minus
            8_192, -8_192, 8_192, -8_192, 8_192, -8_192,  // accelerometer plus/minus: x, y, z
        ]
        for (index, value) in values.enumerated() {
            Self.store(UInt32(UInt16(bitPattern: value)), as: UInt16.self, at: 1 + 2 * index, in: &report)
        }
        return report
    }

    private static func store<Field: FixedWidthInteger>(
        _ value: UInt32, as _: Field.Type, at offset: Int, in report: inout [UInt8]
    ) {
        for index in 0..<MemoryLayout<Field>.size {
            report[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(index)))
        }
    }
}
