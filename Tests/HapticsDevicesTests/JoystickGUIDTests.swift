import HapticsDevices
import Testing

@Suite("SDL joystick GUIDs")
struct JoystickGUIDTests {
    @Test("the CRC is SDL's CRC-16 (CRC-16/ARC: check value 0xBB3D)")
    func crcCheckValue() {
        #expect(JoystickGUID.crc16(Array("123456789".utf8)) == 0xBB3D)
        #expect(JoystickGUID.crc16([UInt8]()) == 0)
    }

    @Test("a DualSense on USB gets the GUID SDL reports for it")
    func dualSenseUSB() {
        let guid = JoystickGUID(id: InputID(bus: 0x03, vendor: 0x054C, product: 0x0CE6, version: 0x8111),
                                name: "Sony Interactive Entertainment DualSense Wireless Controller")
        #expect(guid.string == "0300fd574c050000e60c000011810000")
        #expect(guid.nameCRC == 0x57FD)
        // gamecontrollerdb.txt's row for the pad, matched with the CRC zeroed.
        #expect(guid.withoutNameCRC.string == "030000004c050000e60c000011810000")
    }

    @Test("an Xbox 360 pad through xpad gets the GUID SDL reports for it")
    func xbox360() {
        let guid = JoystickGUID(id: InputID(bus: 0x03, vendor: 0x045E, product: 0x028E, version: 0x0110),
                                name: "Microsoft X-Box 360 pad")
        #expect(guid.string == "030081b85e0400008e02000010010000")
    }

    @Test("a device without a vendor id carries the first 11 bytes of its name")
    func noVendor() {
        let guid = JoystickGUID(id: InputID(bus: 0, vendor: 0, product: 0x028E, version: 0x0110), name: "Microsoft X-Box 360 pad")
        #expect(guid.string == "000081b84d6963726f736f6674205800")
    }

    @Test("the Atari VCS controllers get version 0, as SDL fixes them up before building the GUID")
    func atariVersion() {
        let guid = JoystickGUID(id: InputID(bus: 0x03, vendor: 0x3250, product: 0x1001, version: 0x0123), name: "")
        #expect(guid.string == "03000000503200000110000000000000")
    }

    @Test("the text form parses back, in either case, and nothing else parses")
    func parsing() {
        #expect(JoystickGUID(string: "0300FD574C050000E60C000011810000")?.string == "0300fd574c050000e60c000011810000")
        #expect(JoystickGUID(string: "0300fd57") == nil)
        #expect(JoystickGUID(string: "0300fd574c050000e60c00001181000g") == nil)
        #expect(JoystickGUID(bytes: [1, 2, 3]) == nil)
    }

    @Test("a described event node names its GUID")
    func infoGUID() {
        let info = EvdevDeviceInfo(path: "/dev/input/event5", name: "Microsoft X-Box 360 pad",
                                   id: InputID(bus: 0x03, vendor: 0x045E, product: 0x028E, version: 0x0110),
                                   physicalLocation: "usb-0000:00:14.0-2/input0", uniqueIdentifier: "",
                                   forceFeedbackCodes: [.rumble], slots: 16)
        #expect(info.joystickGUID.string == "030081b85e0400008e02000010010000")
    }

    @Test("a DualSense under SDL's HIDAPI gets the GUIDs SDL reports for it")
    func dualSenseHIDAPI() {
        // SDL 2.26 names the pad "PS5 Controller"; later SDL "DualSense Wireless Controller".
        let sdl226 = JoystickGUID.hidapi(vendor: 0x054C, product: 0x0CE6, releaseNumber: 0x0100, name: "PS5 Controller")
        #expect(sdl226.string == "030072264c050000e60c000000016800")
        let later = JoystickGUID.hidapi(vendor: 0x054C, product: 0x0CE6, releaseNumber: 0x0100, name: "DualSense Wireless Controller")
        #expect(later.string == "030057564c050000e60c000000016800")
        // Over Bluetooth the release is 0 and the bus still USB; mapping databases drop the CRC.
        let bluetooth = JoystickGUID.hidapi(vendor: 0x054C, product: 0x0CE6, releaseNumber: 0)
        #expect(bluetooth.string == "030000004c050000e60c000000006800")
        #expect(sdl226.isHIDAPI && bluetooth.isHIDAPI)
        #expect(sdl226.matchesIgnoringName(later))
        #expect(!sdl226.matchesIgnoringName(bluetooth))
    }

    @Test("SDL before 2.24 has no name CRC: its GUIDs match the engine's with the CRC ignored")
    func beforeSDL224() throws {
        let evdev = JoystickGUID(id: InputID(bus: 0x03, vendor: 0x054C, product: 0x0CE6, version: 0x8111),
                                 name: "Sony Interactive Entertainment DualSense Wireless Controller")
        let old = try #require(JoystickGUID(string: "030000004c050000e60c000011810000"))
        #expect(!old.isHIDAPI && !evdev.isHIDAPI)
        #expect(evdev.matchesIgnoringName(old))
        #expect(evdev != old)
        #expect(!evdev.matchesIgnoringName(JoystickGUID.hidapi(vendor: 0x054C, product: 0x0CE6, releaseNumber: 0x8111)))
        // SDL 2.26's own mapping database has the pad on Bluetooth through evdev (hid-playstation's
        // version 0x8100) in the same form.
        let bluetooth = JoystickGUID(id: InputID(bus: 0x05, vendor: 0x054C, product: 0x0CE6, version: 0x8100),
                                     name: "Sony Interactive Entertainment Wireless Controller")
        #expect(bluetooth.withoutNameCRC.string == "050000004c050000e60c000000810000")
    }
}
