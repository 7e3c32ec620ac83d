import CEvdev
import Glibc
import HapticsRendering
import HapticsSystem

/// Finds force-feedback devices and picks the device profile each one is rendered for.
public enum DeviceCatalog {
    /// Known devices, matched in order (exact product ids before vendor-wide entries).
    ///
    /// Sony DualSense (USB 054c:0ce6, DualSense Edge 054c:0df2) through hid-playstation; DualShock 4
    /// (054c:05c4, second revision 054c:09cc) through hid-sony; every Microsoft (045e) pad through
    /// xpad or hid-microsoft; the Switch Pro Controller (057e:2009) through hid-nintendo.
    public static let knownDevices: [KnownDevice] = [
        KnownDevice(vendor: 0x054C, product: 0x0CE6, profile: .dualSense),
        KnownDevice(vendor: 0x054C, product: 0x0DF2, profile: .dualSense),
        KnownDevice(vendor: 0x054C, product: 0x05C4, profile: .dualShock4),
        KnownDevice(vendor: 0x054C, product: 0x09CC, profile: .dualShock4),
        KnownDevice(vendor: 0x057E, product: 0x2009, profile: .switchPro),
        KnownDevice(vendor: 0x045E, product: nil, profile: .xboxController),
    ]

    /// The force-feedback event nodes in `directory`, sorted by path (numerically: `event2` before
    /// `event10`).
    ///
    /// Nodes that can be opened read-write and have force feedback are described fully. Nodes this
    /// process may not open for writing are not hidden: they are listed with ``EvdevDeviceInfo/accessError``
    /// set (`permissionDenied`, pointing at the udev rule), with their capabilities when a read-only
    /// open still works (then only those with force feedback); when a node of `/dev/input` cannot be
    /// opened at all, with what sysfs says of it (``describeFromSysfs(path:sysfsRoot:)``: name,
    /// identity, location, codes, no slot count; only those with force feedback), else with nothing
    /// but the path and the error. Nodes without force feedback are left out.
    public static func discover(directory: String = "/dev/input") -> [EvdevDeviceInfo] {
        var found: [EvdevDeviceInfo] = []
        for path in eventNodePaths(in: directory) {
            if let info = describe(path: path) { found.append(info) }
        }
        return found
    }

    /// Describes one node as ``discover(directory:)`` does: fully when it opens read-write, with
    /// ``EvdevDeviceInfo/accessError`` set when it does not (capabilities from a read-only open,
    /// or nothing but the path); `nil` when it has no force feedback or is no input device.
    public static func describe(path: String) -> EvdevDeviceInfo? {
        var accessError: DeviceError?
        let descriptor: FileDescriptor
        do {
            descriptor = try FileDescriptor.open(path, .readWrite, options: [.nonBlocking, .closeOnExec])
        } catch {
            accessError = DeviceError(path: path, failure: error)
            // Capabilities only need read access: say what the device could do once permitted.
            guard let readOnly = try? FileDescriptor.open(path, .readOnly, options: [.nonBlocking, .closeOnExec]) else {
                // sysfs describes /dev/input's nodes to everyone: name the device, and leave out a
                // node without force feedback. (Nodes elsewhere are not the ones sysfs names.)
                if path.hasPrefix("/dev/input/"), let sysfs = describeFromSysfsOrOmit(path: path) {
                    guard var described = sysfs else { return nil }
                    described.accessError = accessError
                    return described
                }
                return EvdevDeviceInfo(path: path, name: "", id: InputID(bus: 0, vendor: 0, product: 0, version: 0),
                                       physicalLocation: "", uniqueIdentifier: "", forceFeedbackCodes: [], slots: 0,
                                       accessError: accessError)
            }
            descriptor = readOnly
        }
        defer { try? descriptor.close() }
        do {
            var info = try EvdevDeviceInfo(describing: descriptor, path: path)
            guard info.hasForceFeedback else { return nil }
            info.accessError = accessError
            return info
        } catch {
            // Not an input device after all (libevdev_new_from_fd: ENOTTY), or gone meanwhile: nothing to drive.
            return nil
        }
    }

    /// sysfs's description of the node (`.some(nil)`: sysfs shows it without force feedback), or
    /// `nil` when sysfs does not describe it at all.
    static func describeFromSysfsOrOmit(path: String) -> EvdevDeviceInfo?? {
        if let info = describeFromSysfs(path: path) { return .some(info) }
        guard let node = path.split(separator: "/").last else { return nil }
        let described = (try? FileDescriptor.readContents(ofFile: "\(sysfsInputRoot)/\(node)/device/capabilities/ff",
                                                          maximumSize: 4_096)) != nil
        return described ? .some(nil) : nil
    }

    /// The `event*` entries of `directory`, in numeric order.
    static func eventNodePaths(in directory: String) -> [String] {
        FileDescriptor.numberedEntries(in: directory, prefix: "event")
    }

    /// The profile `device` plays with, carrying the device's real slot count in `limits.slots`.
    ///
    /// A known vendor/product gets its built-in profile. Otherwise the force-feedback bits decide:
    /// `FF_CONSTANT` → ``DeviceProfile/constantForceWheel`` (gamepads never advertise a constant
    /// force; wheels and joysticks do, often beside `FF_PERIODIC`); else `FF_RUMBLE` →
    /// ``DeviceProfile/genericRumble``; else `FF_PERIODIC` → ``DeviceProfile/phoneVibra``. The
    /// kernel blurs rumble and periodic: ff-memless adds `FF_PERIODIC` to every rumble device and the
    /// input core adds `FF_RUMBLE` to every periodic device (each emulated with the other), so a
    /// vibra motor usually reads as rumble, and rumble is what it is driven with. A device with none
    /// of them (it cannot be opened for force feedback anyway) gets the generic rumble profile.
    public static func profile(for device: EvdevDeviceInfo) -> DeviceProfile {
        var profile: DeviceProfile
        if let known = knownDevices.first(where: { $0.vendor == device.id.vendor && ($0.product ?? device.id.product) == device.id.product }) {
            profile = known.profile
        } else if device.supportsConstant {
            profile = .constantForceWheel
        } else if device.supportsRumble {
            profile = .genericRumble
        } else if device.supportsPeriodic {
            profile = .phoneVibra
        } else {
            profile = .genericRumble
        }
        profile.limits.slots = device.slots
        return profile
    }
}
