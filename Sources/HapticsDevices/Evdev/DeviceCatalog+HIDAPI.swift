import Glibc
import HapticsSystem

extension DeviceCatalog {
    /// The GUID SDL's HIDAPI backend gives the pad behind `info`'s event node, with no name CRC
    /// (see ``JoystickGUID/hidapi(vendor:product:releaseNumber:name:)``), or `nil` where SDL's
    /// HIDAPI would not list the pad: a bus other than USB, Bluetooth, I2C or SPI, a USB pad with no
    /// USB device above it in sysfs (a uhid device), a node sysfs does not know.
    ///
    /// The release number of a USB pad is the `bcdDevice` of the USB device above the node in
    /// sysfs; over the other buses SDL uses 0. Reads sysfs: control side.
    public static func hidapiJoystickGUID(of info: EvdevDeviceInfo, sysfsRoot: String = sysfsInputRoot) -> JoystickGUID? {
        guard info.id.vendor != 0, info.id.product != 0 else { return nil }
        switch info.id.bus {
        case 0x05, 0x18, 0x1C:  // BUS_BLUETOOTH, BUS_I2C, BUS_SPI
            return .hidapi(vendor: info.id.vendor, product: info.id.product, releaseNumber: 0)
        case 0x03:  // BUS_USB
            guard let node = info.path.split(separator: "/").last, node.hasPrefix("event"),
                  let resolved = realpath("\(sysfsRoot)/\(node)/device", nil)
            else { return nil }
            var folder = String(cString: resolved)
            free(resolved)
            // Up from the input device: the HID device, the USB interface, then the USB device.
            while let slash = folder.lastIndex(of: "/"), !folder.isEmpty {
                if let bytes = try? FileDescriptor.readContents(ofFile: folder + "/bcdDevice", maximumSize: 64),
                   let release = UInt16(String(decoding: bytes, as: UTF8.self).filter(\.isHexDigit), radix: 16) {
                    return .hidapi(vendor: info.id.vendor, product: info.id.product, releaseNumber: release)
                }
                folder = String(folder[..<slash])
            }
            return nil
        default:
            return nil
        }
    }
}
