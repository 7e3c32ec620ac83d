import CEvdev
import HapticsSystem

/// What an evdev event node says about itself: identity, location and force-feedback capabilities.
///
/// Produced by ``EvdevDevice`` when it opens a node and by ``DeviceCatalog/discover(directory:)``,
/// through libevdev (``init(describing:path:)``).
/// A node that could not be opened is still described, with ``accessError`` saying why and the
/// capability fields as far as they could be read (nothing, when the node could not be opened at all).
public struct EvdevDeviceInfo: Hashable, Sendable {
    /// The event node, e.g. `/dev/input/event7`.
    public var path: String
    /// The device name (`libevdev_get_name`), e.g. `Sony Interactive Entertainment Wireless Controller`.
    public var name: String
    /// Bus, vendor, product and version (`libevdev_get_id_bustype` and its siblings).
    public var id: InputID
    /// Physical location (`libevdev_get_phys`); empty when the driver sets none.
    public var physicalLocation: String
    /// Unique identifier (`libevdev_get_uniq`), e.g. a controller's MAC address; empty when none.
    public var uniqueIdentifier: String
    /// The force-feedback codes the device advertises (`libevdev_has_event_code(EV_FF, …)`): effect
    /// types such as ``ForceFeedbackCode/rumble``, waveforms, and device controls such as
    /// ``ForceFeedbackCode/gain``. Bits are claims, not proof.
    public var forceFeedbackCodes: Set<ForceFeedbackCode>
    /// How many effects the device holds at once (`EVIOCGEFFECTS`; 16 on ff-memless gamepads).
    public var slots: Int
    /// Why the node cannot be used for force feedback by this process, or `nil` when it can.
    public var accessError: DeviceError?

    /// Creates a description.
    public init(
        path: String, name: String, id: InputID, physicalLocation: String, uniqueIdentifier: String,
        forceFeedbackCodes: Set<ForceFeedbackCode>, slots: Int, accessError: DeviceError? = nil
    ) {
        self.path = path
        self.name = name
        self.id = id
        self.physicalLocation = physicalLocation
        self.uniqueIdentifier = uniqueIdentifier
        self.forceFeedbackCodes = forceFeedbackCodes
        self.slots = slots
        self.accessError = accessError
    }

    /// Describes the event node open on `descriptor` (read access is enough): libevdev reads its
    /// name, identity, location and capability bits, and `EVIOCGEFFECTS` its slot count when it has
    /// force feedback. A node without `EV_FF` is described with no codes and no slots.
    ///
    /// Throws the failed call and its errno, e.g. `libevdev_new_from_fd: ENOTTY` for a file that is
    /// not an input device.
    ///
    /// The corresponding C function is `libevdev_new_from_fd`.
    package init(describing descriptor: FileDescriptor, path: String) throws(SystemCallError) {
        let device = try _LibevdevDevice(reading: descriptor)
        try self.init(path: path, device)
    }

    /// Describes the node `device` read.
    init(path: String, _ device: borrowing _LibevdevDevice) throws(SystemCallError) {
        // libevdev has no call for the effect count: that one stays an ioctl.
        let hasForceFeedback = device.hasEventType(EV_FF)
        self.init(
            path: path, name: device.name, id: device.id, physicalLocation: device.physicalLocation,
            uniqueIdentifier: device.uniqueIdentifier,
            forceFeedbackCodes: hasForceFeedback ? device.forceFeedbackCodes : [],
            slots: hasForceFeedback ? try device.descriptor.effectCapacity() : 0
        )
    }

    /// `FF_RUMBLE`: dual-motor rumble.
    public var supportsRumble: Bool { forceFeedbackCodes.contains(.rumble) }
    /// `FF_PERIODIC`: periodic waveforms (single vibra motors; ff-memless flattens them to rumble).
    public var supportsPeriodic: Bool { forceFeedbackCodes.contains(.periodic) }
    /// `FF_CONSTANT`: a constant force (wheels, joysticks).
    public var supportsConstant: Bool { forceFeedbackCodes.contains(.constant) }
    /// `FF_GAIN`: a device-wide gain the engine can set with one write.
    public var supportsGain: Bool { forceFeedbackCodes.contains(.gain) }
    /// `FF_AUTOCENTER`: a self-centring spring (wheels).
    public var supportsAutocenter: Bool { forceFeedbackCodes.contains(.autocenter) }
    /// Whether the device can play anything: at least one effect type and one slot.
    public var hasForceFeedback: Bool { (supportsRumble || supportsPeriodic || supportsConstant) && slots > 0 }
}
