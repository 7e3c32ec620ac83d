/// The joystick GUID SDL gives an evdev device, so a game can match the engine's device to the
/// joystick its input layer (SDL, or a `gamecontrollerdb.txt` mapping) already knows.
///
/// SDL's Linux joystick backend builds it from the node's `struct input_id` and its name
/// (`EVIOCGNAME`), with no vendor name and no driver signature. The 16 bytes are little-endian
/// 16-bit fields:
///
/// | bytes | content |
/// |-------|---------|
/// | 0–1   | bus (`BUS_USB` 0x03, `BUS_BLUETOOTH` 0x05…) |
/// | 2–3   | CRC-16 of the device name (CRC-16/ARC: reflected polynomial 0xA001, initial 0) |
/// | 4–5   | vendor |
/// | 6–7   | 0 |
/// | 8–9   | product |
/// | 10–11 | 0 |
/// | 12–13 | version |
/// | 14–15 | driver signature and data: 0 for the evdev backend |
///
/// A device without a vendor id has the first 11 bytes of its name (NUL-terminated) in bytes
/// 4–15 instead. ``string`` is SDL's `SDL_GUIDToString`: the bytes in order, two lowercase hex
/// digits each, e.g. `0300fd574c050000e60c000011810000` for a DualSense on USB
/// (`Sony Interactive Entertainment DualSense Wireless Controller`, 054c:0ce6, version 0x8111).
/// SDL's mapping database matches GUIDs with the CRC zeroed: ``withoutNameCRC`` is that form.
///
/// SDL adjusts the version of two devices before it builds the GUID, and this does so too: the
/// Atari VCS controllers (3250:1001, 3250:1002) get version 0. SDL's other adjustment, version
/// 0x0902 for an Xbox Elite Series 2 (045e:0b05 version 0x0903) on its first firmware, depends on
/// the device's key bits and is not made here.
public struct JoystickGUID: Hashable, Sendable, CustomStringConvertible {
    /// The 16 bytes, in SDL's order.
    public let bytes: [UInt8]

    /// The GUID SDL's evdev backend computes for a device with this identity and name.
    public init(id: InputID, name: String) {
        var version = id.version
        if id.vendor == 0x3250 && (id.product == 0x1001 || id.product == 0x1002) { version = 0 }
        let crc = Self.crc16(name.utf8)
        var bytes = [UInt8](repeating: 0, count: 16)
        func put(_ value: UInt16, at offset: Int) {
            bytes[offset] = UInt8(truncatingIfNeeded: value)
            bytes[offset + 1] = UInt8(truncatingIfNeeded: value >> 8)
        }
        put(id.bus, at: 0)
        put(crc, at: 2)
        if id.vendor != 0 {
            put(id.vendor, at: 4)
            put(id.product, at: 8)
            put(version, at: 12)
        } else {
            // SDL copies the name with strlcpy into the 12 bytes left: 11 characters and a NUL.
            for (index, byte) in name.utf8.prefix(11).enumerated() { bytes[4 + index] = byte }
        }
        self.bytes = bytes
    }

    /// Wraps 16 bytes in SDL's order.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// Parses SDL's 32-hex-digit form (either case); `nil` for anything else.
    public init?(string: String) {
        let digits = Array(string.utf8)
        guard digits.count == 32 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        for index in stride(from: 0, to: 32, by: 2) {
            guard let high = Self.nibble(digits[index]), let low = Self.nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        self.bytes = bytes
    }

    /// SDL's text form: 32 lowercase hex digits (`SDL_GUIDToString`).
    public var string: String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(32)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// ``string``.
    public var description: String { string }

    /// The name's CRC-16 as stored in bytes 2–3.
    public var nameCRC: UInt16 { UInt16(bytes[2]) | UInt16(bytes[3]) << 8 }

    /// This GUID with the name CRC zeroed: the form SDL's mapping database (`gamecontrollerdb.txt`)
    /// is matched with.
    public var withoutNameCRC: JoystickGUID {
        var bytes = self.bytes
        bytes[2] = 0
        bytes[3] = 0
        return JoystickGUID(bytes: bytes)!
    }

    /// CRC-16/ARC (reflected polynomial 0xA001, initial value 0, no final xor), as SDL's `SDL_crc16`.
    public static func crc16<Bytes: Sequence>(_ data: Bytes) -> UInt16 where Bytes.Element == UInt8 {
        var crc: UInt16 = 0
        for byte in data {
            crc ^= UInt16(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xA001 : crc >> 1 }
        }
        return crc
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

extension EvdevDeviceInfo {
    /// The joystick GUID SDL gives this node (see ``JoystickGUID``).
    public var joystickGUID: JoystickGUID { JoystickGUID(id: id, name: name) }
}
