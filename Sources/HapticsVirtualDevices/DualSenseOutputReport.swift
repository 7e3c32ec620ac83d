import HapticsSystem

/// A report the kernel's hid-playstation driver sent to a (virtual) DualSense.
///
/// Over USB it is the 63-byte output report 0x02, over Bluetooth the 78-byte report 0x31: a
/// sequence byte, the tag 0x10 and a CRC-32 around the same fields. In those fields, byte 0 and 1
/// are valid-flags saying which fields the controller should apply; byte 2 is the weak (right,
/// high-frequency) motor and byte 3 the strong (left, low-frequency) motor, each the effect's
/// 16-bit magnitude divided by 256; bytes 10–20 are the right trigger's effect and 21–31 the left
/// one's (a mode byte and ten parameters), applied when bit 2 (right) or 3 (left) of byte 0 is
/// set. The fields start at byte 1 over USB and at byte 3 over Bluetooth.
///
/// Over Bluetooth a program may also write report 0x32 (142 bytes, through hidraw): 32 frames of
/// the voice coils' waveform, signed 8-bit, left then right, in bytes 13–76, a counter in byte 10
/// and the same CRC-32 (``isHapticsReport``, ``hapticsFrames``).
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

    /// The report id: 0x02 over USB, 0x31 over Bluetooth.
    public var reportID: UInt8 { bytes.first ?? 0 }

    /// Where the fields shared by both connections start: byte 1 in a USB report, byte 3 in a
    /// Bluetooth report the driver wrote (tag 0x10 in byte 2), `nil` for anything else — such as
    /// the reports SDL writes through hidraw, which lay the Bluetooth report out differently.
    public var fieldsOffset: Int? {
        switch reportID {
        case 0x02 where bytes.count >= 48: 1
        case 0x31 where bytes.count >= 50 && bytes[2] == 0x10: 3
        default: nil
        }
    }

    /// `true` when the report sets the motors. The driver flags rumble with "haptics select"
    /// (valid_flag0 bit 1), plus either "compatible vibration" in the same byte (firmware update
    /// version < 0x0215) or "compatible vibration 2" in valid_flag2 (newer firmware). Reports for
    /// the lightbar and player LEDs carry neither and leave the motor bytes meaningless.
    public var setsMotors: Bool {
        guard let offset = fieldsOffset else { return false }
        return bytes[offset] & 0x02 != 0
    }

    /// The weak (right) motor, 0…255. Meaningful when ``setsMotors``.
    public var weakMotor: UInt8 { fieldsOffset.map { bytes[$0 + 2] } ?? 0 }

    /// The strong (left) motor, 0…255. Meaningful when ``setsMotors``.
    public var strongMotor: UInt8 { fieldsOffset.map { bytes[$0 + 3] } ?? 0 }

    /// `true` when the report sets the right trigger's effect (valid_flag0 bit 2).
    public var setsRightTrigger: Bool { fieldsOffset.map { bytes[$0] & 0x04 != 0 } ?? false }

    /// `true` when the report sets the left trigger's effect (valid_flag0 bit 3).
    public var setsLeftTrigger: Bool { fieldsOffset.map { bytes[$0] & 0x08 != 0 } ?? false }

    /// The right trigger's eleven effect bytes (mode, then ten parameters); meaningful when
    /// ``setsRightTrigger``. Empty for a report without the shared fields.
    public var rightTriggerEffect: [UInt8] { fieldsOffset.map { Array(bytes[($0 + 10)..<($0 + 21)]) } ?? [] }

    /// The left trigger's eleven effect bytes; meaningful when ``setsLeftTrigger``.
    public var leftTriggerEffect: [UInt8] { fieldsOffset.map { Array(bytes[($0 + 21)..<($0 + 32)]) } ?? [] }

    /// `true` for an HD haptics report: id 0x32, 142 bytes.
    public var isHapticsReport: Bool { reportID == 0x32 && bytes.count == 142 }

    /// An HD haptics report's 32 frames, left and right interleaved (64 samples); empty for any
    /// other report.
    public var hapticsFrames: [Int8] { isHapticsReport ? bytes[13..<77].map { Int8(bitPattern: $0) } : [] }

    /// An HD haptics report's counter (byte 10), one more in each report a sender writes; `nil`
    /// for any other report.
    public var hapticsCounter: UInt8? { isHapticsReport ? bytes[10] : nil }

    /// Over Bluetooth (reports 0x31 and 0x32), whether the last four bytes are the little-endian
    /// CRC-32 of the seed 0xA2 followed by the rest of the report, as the controller checks; `nil`
    /// for a USB report.
    public var hasValidCRC: Bool? {
        guard reportID == 0x31 || reportID == 0x32, bytes.count > 4 else { return nil }
        let end = bytes.count - 4
        let crc = CRC32.checksum([0xA2] + bytes[..<end])
        return bytes[end...].elementsEqual((0..<4).map { UInt8(truncatingIfNeeded: crc >> (8 * UInt32($0))) })
    }
}
