import Glibc
import HapticsSystem

/// A sysfs tree in a temporary folder, laid out as the kernel lays out pads: a USB HID device with
/// an input device (its event and joystick nodes) and a hidraw node, and a uinput device, which has
/// no parent, and sound cards on USB audio interfaces. The links are those of `/sys/class/input`,
/// `/sys/class/hidraw` and `/sys/class/sound`.
public final class FakeSysfs: Sendable {
    /// The tree's root: what `/sys` is on a machine.
    public let root: String
    private let folder: TemporaryFolder

    /// An empty tree.
    public init() throws(SystemCallError) {
        folder = try TemporaryFolder(prefix: "haptics-sysfs")
        root = folder.path + "/sys"
        try Self.makeFolders(root + "/class/input")
        try Self.makeFolders(root + "/class/hidraw")
    }

    /// The folder of a HID device (`0003:054C:0CE6.0001`) on USB port `port`.
    public func hidDevice(_ name: String, port: Int) -> String {
        "\(root)/devices/pci0000:00/0000:00:14.0/usb1/1-\(port)/1-\(port):1.3/\(name)"
    }

    /// Adds a pad: HID device `hid`, input device `input` with event node `event` and joystick
    /// node `joystick`, and hidraw node `hidraw`.
    public func addPad(hid: String, input: String, event: String, joystick: String, hidraw: String) throws(SystemCallError) {
        let inputFolder = "\(hid)/input/\(input)"
        try addNode(event, in: inputFolder, inputClass: true)
        try addNode(joystick, in: inputFolder, inputClass: true)
        try Self.link("\(inputFolder)/device", to: hid)
        try addNode(hidraw, in: "\(hid)/hidraw", inputClass: false)
        try Self.link("\(hid)/hidraw/\(hidraw)/device", to: hid)
    }

    /// Adds a uinput device: input device `input` with event node `event`, and no parent device.
    public func addUInputDevice(input: String, event: String) throws(SystemCallError) {
        try addNode(event, in: "\(root)/devices/virtual/input/\(input)", inputClass: true)
    }

    /// Adds sound card `number` with ALSA id `id`, its audio interface `interface` (a folder such
    /// as `…/usb1/1-2/1-2:1.0`), linked from `/sys/class/sound/cardN` as the kernel links it.
    public func addSoundCard(number: Int, id: String, interface: String) throws(SystemCallError) {
        let card = "\(interface)/sound/card\(number)"
        try Self.makeFolders(card)
        try Self.makeFolders(root + "/class/sound")
        try Self.link("\(card)/device", to: interface)
        try writeAttribute(id, at: "\(card)/id")
        try Self.link("\(root)/class/sound/card\(number)", to: card)
    }

    /// Writes the attribute file `path` (absolute, inside the tree) holding `text` and a newline, as
    /// sysfs shows `id/vendor`; creates the folders on the way.
    public func writeAttribute(_ text: String, at path: String) throws(SystemCallError) {
        if let slash = path.lastIndex(of: "/") { try Self.makeFolders(String(path[..<slash])) }
        try FileDescriptor.writeContents(Array("\(text)\n".utf8), toFile: path)
    }

    /// Removes the tree.
    public func remove() { folder.remove() }

    private func addNode(_ node: String, in parent: String, inputClass: Bool) throws(SystemCallError) {
        try Self.makeFolders("\(parent)/\(node)")
        if inputClass { try Self.link("\(parent)/\(node)/device", to: parent) }
        try Self.link("\(root)/class/\(inputClass ? "input" : "hidraw")/\(node)", to: "\(parent)/\(node)")
    }

    private static func makeFolders(_ path: String) throws(SystemCallError) {
        var made = ""
        for component in path.split(separator: "/") {
            made += "/\(component)"
            guard mkdir(made, 0o755) == 0 || errno == EEXIST else {
                throw SystemCallError(call: "mkdir", errno: Errno(rawValue: errno))
            }
        }
    }

    private static func link(_ path: String, to target: String) throws(SystemCallError) {
        guard symlink(target, path) == 0 else { throw SystemCallError(call: "symlink", errno: Errno(rawValue: errno)) }
    }
}
