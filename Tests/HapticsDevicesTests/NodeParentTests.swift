import HapticsDevices
import HapticsTestSupport
import Testing

@Suite("The device a node belongs to, from sysfs")
struct NodeParentTests {
    @Test("a pad's event, joystick and hidraw nodes lead to its HID device; another pad's do not")
    func sameHIDDevice() throws {
        let sysfs = try FakeSysfs()
        defer { sysfs.remove() }
        let first = sysfs.hidDevice("0003:054C:0CE6.0001", port: 2)
        let second = sysfs.hidDevice("0003:054C:0CE6.0002", port: 3)
        try sysfs.addPad(hid: first, input: "input7", event: "event5", joystick: "js0", hidraw: "hidraw3")
        try sysfs.addPad(hid: second, input: "input8", event: "event6", joystick: "js1", hidraw: "hidraw4")
        #expect(DeviceCatalog.parentDevice(ofNode: "/dev/input/event5", sysfs: sysfs.root) == first)
        #expect(DeviceCatalog.parentDevice(ofNode: "/dev/input/js0", sysfs: sysfs.root) == first)
        #expect(DeviceCatalog.parentDevice(ofNode: "/dev/hidraw3", sysfs: sysfs.root) == first)
        #expect(DeviceCatalog.parentDevice(ofNode: "/dev/input/event6", sysfs: sysfs.root) == second)
        #expect(DeviceCatalog.parentDevice(ofNode: "/dev/hidraw4", sysfs: sysfs.root) == second)
    }

    @Test("a uinput device, a node sysfs does not know and a node of another kind have no parent")
    func noParent() throws {
        let sysfs = try FakeSysfs()
        defer { sysfs.remove() }
        try sysfs.addUInputDevice(input: "input9", event: "event9")
        #expect(DeviceCatalog.parentDevice(ofNode: "/dev/input/event9", sysfs: sysfs.root) == nil)
        #expect(DeviceCatalog.parentDevice(ofNode: "/dev/input/event42", sysfs: sysfs.root) == nil)
        #expect(DeviceCatalog.parentDevice(ofNode: "/dev/hidraw42", sysfs: sysfs.root) == nil)
        #expect(DeviceCatalog.parentDevice(ofNode: "/dev/input/mouse0", sysfs: sysfs.root) == nil)
        #expect(DeviceCatalog.parentDevice(ofNode: "", sysfs: sysfs.root) == nil)
    }
}
