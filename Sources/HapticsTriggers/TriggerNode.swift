import Glibc
import HapticsSystem

/// The hidraw node of a pad with adaptive triggers, found from its input device, and how the pad
/// is connected.
///
/// The kernel's `hid-playstation` driver has no interface for trigger effects: they are output
/// reports written to the pad's hidraw node. That node hangs off the same HID device as the pad's
/// event node: `/sys/class/input/eventN/device` is the input device, two folders below the HID
/// device whose `hidraw/` folder names the node.
public struct TriggerNode: Hashable, Sendable {
    /// The hidraw node, e.g. `/dev/hidraw3`.
    public var path: String
    /// How the pad is connected, from the input device's bus.
    public var transport: DualSenseTransport

    /// Creates a description of a node.
    public init(path: String, transport: DualSenseTransport) {
        self.path = path
        self.transport = transport
    }

    /// Whether a device with these ids has adaptive triggers: Sony's (054c) DualSense (0ce6) and
    /// DualSense Edge (0df2).
    public static func hasAdaptiveTriggers(vendor: UInt16, product: UInt16) -> Bool {
        vendor == 0x054C && (product == 0x0CE6 || product == 0x0DF2)
    }

    /// The transport of a device on `bus` (`BUS_USB` 3, `BUS_BLUETOOTH` 5), `nil` on any other bus.
    public static func transport(bus: UInt16) -> DualSenseTransport? {
        switch bus {
        case 0x03: .usb
        case 0x05: .bluetooth
        default: nil
        }
    }

    /// Finds the hidraw node of the pad behind `eventNode` (`/dev/input/event5`) in sysfs: checks
    /// that the pad has adaptive triggers and is on USB or Bluetooth, then looks for a `hidraw/`
    /// folder above the input device. Reads sysfs only; the node is opened by
    /// ``AdaptiveTriggers``. `devices` is the folder of the hidraw nodes.
    public static func locate(
        eventNode: String, sysfsRoot: String = "/sys/class/input", devices: String = "/dev"
    ) throws(TriggerDeviceError) -> TriggerNode {
        guard let name = eventNode.split(separator: "/").last, name.hasPrefix("event") else {
            throw .unknownInputDevice(eventNode: eventNode)
        }
        let device = "\(sysfsRoot)/\(name)/device"
        func hex(_ file: String) -> UInt16? {
            guard let bytes = try? FileDescriptor.readContents(ofFile: "\(device)/id/\(file)", maximumSize: 4_096) else { return nil }
            return UInt16(String(decoding: bytes, as: UTF8.self).filter(\.isHexDigit), radix: 16)
        }
        guard let bus = hex("bustype"), let vendor = hex("vendor"), let product = hex("product") else {
            throw .unknownInputDevice(eventNode: eventNode)
        }
        guard hasAdaptiveTriggers(vendor: vendor, product: product) else {
            throw .noAdaptiveTriggers(eventNode: eventNode, vendor: vendor, product: product)
        }
        guard let transport = transport(bus: bus) else { throw .unsupportedBus(eventNode: eventNode, bus: bus) }
        guard let resolved = realpath(device, nil) else { throw .unknownInputDevice(eventNode: eventNode) }
        var folder = String(cString: resolved)
        free(resolved)
        // inputN, its `input` folder, then the HID device: the first folder up with a hidraw node.
        for _ in 0..<3 {
            if let node = FileDescriptor.numberedEntries(in: folder + "/hidraw", prefix: "hidraw").first {
                let nodeName = node.split(separator: "/").last.map(String.init) ?? node
                return TriggerNode(path: "\(devices)/\(nodeName)", transport: transport)
            }
            guard let slash = folder.lastIndex(of: "/"), slash != folder.startIndex else { break }
            folder = String(folder[..<slash])
        }
        throw .noHidrawNode(eventNode: eventNode)
    }

    /// Opens the node, writes one report that gives the left trigger `left` and the right trigger
    /// `right` (`nil`: leave it as it is), and closes the node: the effects stay on the pad until
    /// something sets them again. For tools; a game holds ``AdaptiveTriggers``, which writes off
    /// its game's thread and sets the triggers off when it closes. Returns the report written.
    @discardableResult
    public func writeOnce(left: TriggerEffect?, right: TriggerEffect?) throws(TriggerDeviceError) -> DualSenseTriggerReport {
        let descriptor = try open()
        defer { try? descriptor.close() }
        let report = DualSenseTriggerReport(transport: transport, left: left, right: right)
        try write(report, to: descriptor)
        return report
    }

    /// Opens the node for writing.
    ///
    /// The corresponding C function is `open`.
    package func open() throws(TriggerDeviceError) -> FileDescriptor {
        do {
            return try FileDescriptor.open(path, .writeOnly, options: [.closeOnExec, .noControllingTerminal])
        } catch {
            throw TriggerDeviceError(node: path, error)
        }
    }

    /// Writes `report` to the node open on `descriptor`: one `write()`, no allocation.
    ///
    /// The corresponding C function is `write`.
    package func write(_ report: DualSenseTriggerReport, to descriptor: FileDescriptor) throws(TriggerDeviceError) {
        try write(report: report.bytes, to: descriptor)
    }

    /// Writes the output report `bytes` (report id first: a trigger report, a haptics report) to
    /// the node open on `descriptor`: one `write()`, no allocation.
    ///
    /// The corresponding C function is `write`.
    package func write(report bytes: [UInt8], to descriptor: FileDescriptor) throws(TriggerDeviceError) {
        let result = bytes.withUnsafeBytes { bytes in
            Result { () throws(SystemCallError) in try descriptor.write(bytes) }
        }
        switch result {
        case .failure(let error):
            throw TriggerDeviceError(node: path, error)
        case .success(let written) where written != bytes.count:
            // hidraw takes a report whole or not at all: a short write means the node is not a pad's.
            throw .padLost(node: path, SystemCallError(call: "write", errno: .ioError))
        case .success:
            break
        }
    }
}
