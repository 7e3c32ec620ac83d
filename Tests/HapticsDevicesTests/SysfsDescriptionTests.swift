import Glibc
import HapticsDevices
import HapticsTestSupport
import Testing

@Suite("Describing a node from sysfs")
struct SysfsDescriptionTests {
    /// A sysfs input tree with one device at `eventN`.
    func tree(_ folder: TemporaryFolder, node: String, ff: String) throws {
        let device = "\(node)/device"
        for name in [node, device, "\(device)/id", "\(device)/capabilities"] {
            #expect(mkdir(folder.path + "/" + name, 0o755) == 0)
        }
        try folder.write("Sony Interactive Entertainment DualSense Wireless Controller\n", to: "\(device)/name")
        try folder.write("usb-0000:00:14.0-2/input3\n", to: "\(device)/phys")
        try folder.write("a0:ab:51:00:00:01\n", to: "\(device)/uniq")
        for (name, value) in [("bustype", "0003"), ("vendor", "054c"), ("product", "0ce6"), ("version", "8111")] {
            try folder.write(value + "\n", to: "\(device)/id/\(name)")
        }
        try folder.write(ff + "\n", to: "\(device)/capabilities/ff")
    }

    @Test("a node nobody may open is named from sysfs, with its codes and SDL GUID")
    func describes() throws {
        let folder = try TemporaryFolder(prefix: "haptics-sysfs")
        defer { folder.remove() }
        // ff-memless: FF_RUMBLE, FF_PERIODIC, its waveforms, FF_GAIN (bits 0x50–0x51, 0x58–0x5d, 0x60).
        try tree(folder, node: "event7", ff: "107030000 0")
        let info = try #require(DeviceCatalog.describeFromSysfs(path: "/dev/input/event7", sysfsRoot: folder.path))
        #expect(info.name == "Sony Interactive Entertainment DualSense Wireless Controller")
        #expect(info.id == InputID(bus: 0x03, vendor: 0x054C, product: 0x0CE6, version: 0x8111))
        #expect(info.physicalLocation == "usb-0000:00:14.0-2/input3")
        #expect(info.uniqueIdentifier == "a0:ab:51:00:00:01")
        #expect(info.forceFeedbackCodes == [.rumble, .periodic, .square, .triangle, .sine, .gain])
        #expect(info.slots == 0)
        #expect(info.joystickGUID.string == "0300fd574c050000e60c000011810000")
    }

    @Test("a node without a force-feedback effect type, or unknown to sysfs, is not described")
    func leavesOut() throws {
        let folder = try TemporaryFolder(prefix: "haptics-sysfs")
        defer { folder.remove() }
        try tree(folder, node: "event3", ff: "0")
        #expect(DeviceCatalog.describeFromSysfs(path: "/dev/input/event3", sysfsRoot: folder.path) == nil)
        #expect(DeviceCatalog.describeFromSysfs(path: "/dev/input/event9", sysfsRoot: folder.path) == nil)
        #expect(DeviceCatalog.describeFromSysfs(path: "/dev/input/js0", sysfsRoot: folder.path) == nil)
    }

    @Test("the HIDAPI GUID of a USB pad carries the release number of the USB device above it")
    func hidapiGUID() throws {
        let folder = try TemporaryFolder(prefix: "haptics-sysfs")
        defer { folder.remove() }
        // usb1/1-2 (the USB device) / 1-2:1.3 (its interface) / the HID device / input/input9.
        let usb = "devices/usb1/1-2"
        let input = "\(usb)/1-2:1.3/0003:054C:0CE6.0004/input/input9"
        var path = folder.path
        for part in input.split(separator: "/") {
            path += "/" + part
            #expect(mkdir(path, 0o755) == 0)
        }
        try folder.write("0100\n", to: "\(usb)/bcdDevice")
        #expect(mkdir(folder.path + "/class", 0o755) == 0)
        #expect(mkdir(folder.path + "/class/event9", 0o755) == 0)
        #expect(symlink(folder.path + "/" + input, folder.path + "/class/event9/device") == 0)
        let name = "Sony Interactive Entertainment DualSense Wireless Controller"
        var info = EvdevDeviceInfo(path: "/dev/input/event9", name: name,
                                   id: InputID(bus: 0x03, vendor: 0x054C, product: 0x0CE6, version: 0x8100),
                                   physicalLocation: "", uniqueIdentifier: "", forceFeedbackCodes: [.rumble], slots: 16)
        let usbGUID = DeviceCatalog.hidapiJoystickGUID(of: info, sysfsRoot: folder.path + "/class")
        #expect(usbGUID?.string == "030000004c050000e60c000000016800")
        // Without a USB device above it (a uhid pad) SDL's HIDAPI does not list it.
        #expect(unlink(folder.path + "/\(usb)/bcdDevice") == 0)
        #expect(DeviceCatalog.hidapiJoystickGUID(of: info, sysfsRoot: folder.path + "/class") == nil)
        // Over Bluetooth the release is 0, and sysfs is not read.
        info.id.bus = 0x05
        #expect(DeviceCatalog.hidapiJoystickGUID(of: info, sysfsRoot: "/nonexistent")?.string == "030000004c050000e60c000000006800")
        info.id.bus = 0x06
        #expect(DeviceCatalog.hidapiJoystickGUID(of: info, sysfsRoot: folder.path + "/class") == nil)
    }
}
