import HapticsSystem
import HapticsTestSupport
import Testing
@testable import HapticsTriggers

/// Finding a pad's hidraw node from its event node in a sysfs tree laid out as the kernel lays it out.
@Suite("Trigger node lookup")
struct TriggerNodeTests {
    /// A pad with ids `bus:vendor:product`, event node event5 and hidraw node hidraw3.
    func sysfs(bus: String, vendor: String = "054c", product: String = "0ce6") throws -> FakeSysfs {
        let sysfs = try FakeSysfs()
        let hid = sysfs.hidDevice("0003:054C:0CE6.0001", port: 2)
        try sysfs.addPad(hid: hid, input: "input5", event: "event5", joystick: "js0", hidraw: "hidraw3")
        for (name, value) in [("bustype", bus), ("vendor", vendor), ("product", product)] {
            try sysfs.writeAttribute(value, at: "\(hid)/input/input5/id/\(name)")
        }
        return sysfs
    }

    @Test("a DualSense on USB: the hidraw node of its HID device, transport USB")
    func usb() throws {
        let sysfs = try sysfs(bus: "0003")
        defer { sysfs.remove() }
        let node = try TriggerNode.locate(eventNode: "/dev/input/event5", sysfsRoot: sysfs.root + "/class/input")
        #expect(node == TriggerNode(path: "/dev/hidraw3", transport: .usb))
    }

    @Test("a DualSense Edge over Bluetooth: transport Bluetooth")
    func bluetooth() throws {
        let sysfs = try sysfs(bus: "0005", product: "0df2")
        defer { sysfs.remove() }
        let node = try TriggerNode.locate(eventNode: "/dev/input/event5", sysfsRoot: sysfs.root + "/class/input", devices: "/tmp/dev")
        #expect(node == TriggerNode(path: "/tmp/dev/hidraw3", transport: .bluetooth))
    }

    @Test("a pad without adaptive triggers, another bus, an unknown node: each says so")
    func refusals() throws {
        let other = try sysfs(bus: "0003", product: "09cc")
        defer { other.remove() }
        #expect(throws: TriggerDeviceError.noAdaptiveTriggers(eventNode: "/dev/input/event5", vendor: 0x054C, product: 0x09CC)) {
            try TriggerNode.locate(eventNode: "/dev/input/event5", sysfsRoot: other.root + "/class/input")
        }
        #expect(TriggerDeviceError.noAdaptiveTriggers(eventNode: "/dev/input/event5", vendor: 0x054C, product: 0x09CC).description
            == "/dev/input/event5 (054c:09cc) is not a DualSense or DualSense Edge: it has no adaptive triggers")
        let i2c = try sysfs(bus: "0018")
        defer { i2c.remove() }
        #expect(throws: TriggerDeviceError.unsupportedBus(eventNode: "/dev/input/event5", bus: 0x18)) {
            try TriggerNode.locate(eventNode: "/dev/input/event5", sysfsRoot: i2c.root + "/class/input")
        }
        #expect(throws: TriggerDeviceError.unknownInputDevice(eventNode: "/dev/input/event9")) {
            try TriggerNode.locate(eventNode: "/dev/input/event9", sysfsRoot: i2c.root + "/class/input")
        }
    }

    @Test("an input device with no hidraw node above it")
    func noHidraw() throws {
        let sysfs = try FakeSysfs()
        defer { sysfs.remove() }
        try sysfs.addUInputDevice(input: "input7", event: "event7")
        let input = "\(sysfs.root)/devices/virtual/input/input7"
        for (name, value) in [("bustype", "0003"), ("vendor", "054c"), ("product", "0ce6")] {
            try sysfs.writeAttribute(value, at: "\(input)/id/\(name)")
        }
        #expect(throws: TriggerDeviceError.noHidrawNode(eventNode: "/dev/input/event7")) {
            try TriggerNode.locate(eventNode: "/dev/input/event7", sysfsRoot: sysfs.root + "/class/input")
        }
    }
}
