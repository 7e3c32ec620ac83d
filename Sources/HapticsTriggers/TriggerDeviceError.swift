import HapticsSystem

/// Why a pad's triggers cannot be set, with the node it is about and the fix where there is one.
public enum TriggerDeviceError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The input device is not a pad with adaptive triggers (vendor and product as read from sysfs).
    case noAdaptiveTriggers(eventNode: String, vendor: UInt16, product: UInt16)
    /// The pad is on a bus other than USB and Bluetooth.
    case unsupportedBus(eventNode: String, bus: UInt16)
    /// sysfs does not describe the input device (no such node, or not an event node).
    case unknownInputDevice(eventNode: String)
    /// No hidraw node sits above the input device in sysfs: the `hidraw` module is not loaded, or
    /// the device is not a HID device.
    case noHidrawNode(eventNode: String)
    /// The hidraw node may not be opened by this user: the udev rule grants it.
    case permissionDenied(node: String)
    /// The hidraw node does not exist (any more).
    case nodeMissing(node: String)
    /// The pad went away: a write failed with `ENODEV`, `EIO`, `ENXIO` or `EPIPE`.
    case padLost(node: String, SystemCallError)
    /// Another system call failed on the node.
    case system(node: String, SystemCallError)
    /// The triggers were closed: nothing is written after ``AdaptiveTriggers/close()``.
    case closed(node: String)
    /// As many effects as can wait for their instants wait already.
    case tooManyTimedEffects(node: String, capacity: Int)

    /// Sorts a failed call on `node` into the cases above.
    package init(node: String, _ error: SystemCallError) {
        switch error.errno {
        case .permissionDenied, .notPermitted: self = .permissionDenied(node: node)
        case .noSuchFileOrDirectory: self = .nodeMissing(node: node)
        case .operationNotSupportedByDevice, .ioError, .noSuchAddressOrDevice, .brokenPipe: self = .padLost(node: node, error)
        default: self = .system(node: node, error)
        }
    }

    /// One line saying what failed, where, and the fix where there is one.
    public var description: String {
        switch self {
        case .noAdaptiveTriggers(let eventNode, let vendor, let product):
            return "\(eventNode) (\(hex(vendor)):\(hex(product))) is not a DualSense or DualSense Edge: it has no adaptive triggers"
        case .unsupportedBus(let eventNode, let bus):
            return "\(eventNode) is on bus \(hex(bus)); trigger effects are written over USB or Bluetooth only"
        case .unknownInputDevice(let eventNode):
            return "\(eventNode): sysfs describes no such input device"
        case .noHidrawNode(let eventNode):
            return "\(eventNode): no hidraw node above it in sysfs (is the hidraw module loaded?)"
        case .permissionDenied(let node):
            return "\(node): permission denied; install the udev rule that grants hidraw nodes of DualSense pads (see the guide for the pad)"
        case .nodeMissing(let node):
            return "\(node): no such hidraw node (the pad was unplugged?)"
        case .padLost(let node, let error):
            return "\(node): the pad is gone (\(error))"
        case .system(let node, let error):
            return "\(node): \(error)"
        case .closed(let node):
            return "\(node): the triggers were closed"
        case .tooManyTimedEffects(let node, let capacity):
            return "\(node): \(capacity) trigger effects wait for their instants already; set fewer ahead"
        }
    }

    private func hex(_ value: UInt16) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }
}
