import HapticsSystem

/// A report the kernel's hid-playstation driver sent to a (virtual) DualSense over USB.
///
/// Layout of the 63-byte USB output report 0x02: byte 1 and 2 are valid-flags saying which fields
/// the controller should apply; byte 3 is the weak (right, high-frequency) motor and byte 4 the
/// strong (left, low-frequency) motor, each the effect's 16-bit magnitude divided by 256.
public struct DualSenseOutputReport: Hashable, Sendable {
    /// The raw report, report id in byte 0.
    public var bytes: [UInt8]
    /// When the report was read from uhid, on `CLOCK_MONOTONIC`.
    public var receivedAt: MonotonicInstant

    /// Creates a report from its bytes and the instant it was read.
    public init(bytes: [UInt8], receivedAt: MonotonicInstant) {
        self.bytes = bytes
        self.receivedAt = receivedAt
    }

    /// The report id (0x02 for USB output reports).
    public var reportID: UInt8 { bytes.first ?? 0 }

    /// `true` when the report sets the motors. The driver flags rumble with "haptics select"
    /// (valid_flag0 bit 1), plus either "compatible vibration" in the same byte (firmware update
    /// version < 0x0215) or "compatible vibration 2" in byte 39 (newer firmware). Reports for the
    /// lightbar and player LEDs carry neither and leave the motor bytes meaningless.
    public var setsMotors: Bool { bytes.count > 4 && reportID == 0x02 && bytes[1] & 0x02 != 0 }

    /// The weak (right) motor, 0…255. Meaningful when ``setsMotors``.
    public var weakMotor: UInt8 { bytes.count > 3 ? bytes[3] : 0 }

    /// The strong (left) motor, 0…255. Meaningful when ``setsMotors``.
    public var strongMotor: UInt8 { bytes.count > 4 ? bytes[4] : 0 }
}
