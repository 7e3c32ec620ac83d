import HapticsSystem
import HapticsTestSupport
import Testing
@testable import HapticsVoiceCoils

/// Pairing a pad's input device with its sound card in a sysfs tree laid out as the kernel lays it out.
@Suite("Voice-coil sound card lookup")
struct VoiceCoilSoundCardTests {
    /// A pad on USB port 2 (event5), its card 1 (`Controller`), and an unrelated card 0 on port 1.
    func sysfs() throws -> FakeSysfs {
        let sysfs = try FakeSysfs()
        let hid = sysfs.hidDevice("0003:054C:0CE6.0001", port: 2)
        try sysfs.addPad(hid: hid, input: "input5", event: "event5", joystick: "js0", hidraw: "hidraw3")
        let usb = "\(sysfs.root)/devices/pci0000:00/0000:00:14.0/usb1"
        try sysfs.addSoundCard(number: 0, id: "Headset", interface: "\(usb)/1-1/1-1:1.0")
        try sysfs.addSoundCard(number: 1, id: "Controller", interface: "\(usb)/1-2/1-2:1.0")
        return sysfs
    }

    @Test("the card whose audio interface shares the pad's USB device")
    func pairs() throws {
        let sysfs = try sysfs()
        defer { sysfs.remove() }
        let card = try VoiceCoilSoundCard.locate(eventNode: "/dev/input/event5", sysfsRoot: sysfs.root)
        #expect(card == VoiceCoilSoundCard(device: "hw:1,0", number: 1, id: "Controller"))
        #expect(card.description == "hw:1,0 (card 1, Controller)")
    }

    @Test("no card on the pad's USB device, an unknown node: each says so")
    func refusals() throws {
        let sysfs = try FakeSysfs()
        defer { sysfs.remove() }
        let hid = sysfs.hidDevice("0005:054C:0CE6.0002", port: 3)
        try sysfs.addPad(hid: hid, input: "input6", event: "event6", joystick: "js1", hidraw: "hidraw4")
        try sysfs.addSoundCard(number: 0, id: "Headset", interface: "\(sysfs.root)/devices/pci0000:00/0000:00:14.0/usb1/1-1/1-1:1.0")
        #expect(throws: VoiceCoilDeviceError.noSoundCard(eventNode: "/dev/input/event6")) {
            try VoiceCoilSoundCard.locate(eventNode: "/dev/input/event6", sysfsRoot: sysfs.root)
        }
        #expect(throws: VoiceCoilDeviceError.unknownInputDevice(eventNode: "/dev/input/event9")) {
            try VoiceCoilSoundCard.locate(eventNode: "/dev/input/event9", sysfsRoot: sysfs.root)
        }
        #expect(throws: VoiceCoilDeviceError.unknownInputDevice(eventNode: "/dev/hidraw4")) {
            try VoiceCoilSoundCard.locate(eventNode: "/dev/hidraw4", sysfsRoot: sysfs.root)
        }
    }

    @Test("an override names a card by number, by id or as an hw: device")
    func overrides() throws {
        let sysfs = try sysfs()
        defer { sysfs.remove() }
        #expect(try VoiceCoilSoundCard(override: "1", sysfsRoot: sysfs.root) == VoiceCoilSoundCard(device: "hw:1,0", number: 1, id: "Controller"))
        #expect(try VoiceCoilSoundCard(override: " Headset\n", sysfsRoot: sysfs.root) == VoiceCoilSoundCard(device: "hw:0,0", number: 0, id: "Headset"))
        #expect(try VoiceCoilSoundCard(override: "hw:CARD=Loopback,DEV=0", sysfsRoot: sysfs.root)
            == VoiceCoilSoundCard(device: "hw:CARD=Loopback,DEV=0", number: nil, id: nil))
        #expect(throws: VoiceCoilDeviceError.unknownSoundCard("7")) { try VoiceCoilSoundCard(override: "7", sysfsRoot: sysfs.root) }
        #expect(throws: VoiceCoilDeviceError.unknownSoundCard("hw:")) { try VoiceCoilSoundCard(override: "hw:", sysfsRoot: sysfs.root) }
        #expect(VoiceCoilDeviceError.unknownSoundCard("7").description
            == "no sound card \"7\": give a card number, a card id (see /proc/asound/cards) or an ALSA hw: device")
    }
}
