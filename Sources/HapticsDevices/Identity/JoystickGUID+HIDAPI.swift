extension JoystickGUID {
    /// The GUID SDL's HIDAPI backend gives a pad it drives through its hidraw node.
    ///
    /// SDL (2.0.14 to 2.26) builds it as its evdev backend does, with three differences: the bus is
    /// always USB (0x0003), even over Bluetooth; the version is the USB release number
    /// (`bcdDevice`), 0 over Bluetooth; and byte 14 is `'h'` (0x68), SDL's mark of a HIDAPI device.
    /// The CRC covers SDL's own name for the pad, which its driver sets (`PS5 Controller` for a
    /// DualSense in SDL 2.26). SDL before 2.24 puts no CRC in any GUID (bytes 2–3 are 0): an empty
    /// `name` gives that form. A DualSense on USB (release 0x0100) under SDL 2.26 is
    /// `030072264c050000e60c000000016800`.
    public static func hidapi(vendor: UInt16, product: UInt16, releaseNumber: UInt16, name: String = "") -> JoystickGUID {
        var bytes = JoystickGUID(id: InputID(bus: 0x0003, vendor: vendor, product: product, version: releaseNumber),
                                 name: name).bytes
        bytes[14] = UInt8(ascii: "h")
        return JoystickGUID(bytes: bytes)!
    }

    /// Whether SDL's HIDAPI backend made this GUID (`'h'` in byte 14).
    public var isHIDAPI: Bool { bytes[14] == UInt8(ascii: "h") }

    /// Whether `other` is the same GUID but for the name CRC: SDL before 2.24 leaves the CRC 0, and
    /// under HIDAPI it covers SDL's name for the pad rather than the kernel's.
    public func matchesIgnoringName(_ other: JoystickGUID) -> Bool { withoutNameCRC == other.withoutNameCRC }
}
