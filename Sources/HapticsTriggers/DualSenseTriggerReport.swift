import HapticsSystem

/// How a DualSense is connected, which decides how its output reports are framed.
public enum DualSenseTransport: String, Sendable, Hashable, CustomStringConvertible {
    /// USB: output report 0x02, 63 bytes, no checksum.
    case usb
    /// Bluetooth: output report 0x31, 78 bytes: a sequence byte, the tag 0x10, the same fields as
    /// over USB, and a CRC-32 in the last four bytes.
    case bluetooth

    /// `USB` or `Bluetooth`.
    public var description: String { self == .usb ? "USB" : "Bluetooth" }
}

/// An output report that sets a DualSense's trigger effects and nothing else.
///
/// Its valid-flag bytes have only the right (bit 2) and left (bit 3) trigger bits of the first
/// flag byte set, for the triggers it changes: the pad ignores every other field, so the report
/// neither undoes the kernel driver's rumble, lightbar and LED reports nor switches the pad to
/// rumble emulation, and the driver's reports, which never set the trigger bits, leave the
/// triggers alone.
///
/// Built on the control side; the bytes are ready to be written to the pad's hidraw node as they
/// are. Over Bluetooth each write carries the next sequence number, and
/// ``setSequence(_:)`` changes it and the checksum in place, without allocating.
public struct DualSenseTriggerReport: Sendable, Hashable {
    /// The connection the report is framed for.
    public let transport: DualSenseTransport
    /// The report, report id in byte 0.
    public private(set) var bytes: [UInt8]

    /// The size of the USB report 0x02, the kernel driver's `DS_OUTPUT_REPORT_USB_SIZE`.
    public static let usbSize = 63
    /// The size of the Bluetooth report 0x31, the kernel driver's `DS_OUTPUT_REPORT_BT_SIZE`.
    public static let bluetoothSize = 78
    /// The first valid-flag byte's bit for the right trigger's effect.
    public static let rightTriggerFlag: UInt8 = 0x04
    /// The first valid-flag byte's bit for the left trigger's effect.
    public static let leftTriggerFlag: UInt8 = 0x08
    /// The seed byte before a Bluetooth output report in its CRC-32.
    public static let bluetoothCRCSeed: UInt8 = 0xA2

    /// A report that gives the left trigger `left` and the right trigger `right`; a `nil` effect
    /// leaves that trigger as it is (its enable bit clear). Over Bluetooth the report carries
    /// `sequence` (its low four bits) and its CRC.
    public init(transport: DualSenseTransport, left: TriggerEffect?, right: TriggerEffect?, sequence: UInt8 = 0) {
        self.transport = transport
        bytes = [UInt8](repeating: 0, count: transport == .usb ? Self.usbSize : Self.bluetoothSize)
        let fields: Int
        switch transport {
        case .usb:
            bytes[0] = 0x02
            fields = 1
        case .bluetooth:
            bytes[0] = 0x31
            bytes[2] = 0x10  // The tag every Bluetooth output report carries.
            fields = 3
        }
        bytes.withUnsafeMutableBytes { report in
            if let right {
                report[fields] |= Self.rightTriggerFlag
                right.pack(into: UnsafeMutableRawBufferPointer(rebasing: report[(fields + 10)...]))
            }
            if let left {
                report[fields] |= Self.leftTriggerFlag
                left.pack(into: UnsafeMutableRawBufferPointer(rebasing: report[(fields + 21)...]))
            }
        }
        setSequence(sequence)
    }

    /// Where the fields shared by both connections start: after the report id over USB, after the
    /// sequence and tag bytes over Bluetooth.
    public var fieldsOffset: Int { transport == .usb ? 1 : 3 }
    /// Where the right trigger's eleven bytes start.
    public var rightTriggerOffset: Int { fieldsOffset + 10 }
    /// Where the left trigger's eleven bytes start.
    public var leftTriggerOffset: Int { fieldsOffset + 21 }

    /// Over Bluetooth: puts `sequence` (0…15) in the high half of byte 1 and seals the report with
    /// its CRC-32 (seed 0xA2, little-endian in the last four bytes). Does not allocate once the
    /// report is uniquely held. Over USB it does nothing: those reports have neither.
    public mutating func setSequence(_ sequence: UInt8) {
        guard transport == .bluetooth else { return }
        bytes.withUnsafeMutableBytes { report in
            report[1] = (sequence & 0x0F) << 4
            CRC32.seal(report, seed: Self.bluetoothCRCSeed)
        }
    }
}
