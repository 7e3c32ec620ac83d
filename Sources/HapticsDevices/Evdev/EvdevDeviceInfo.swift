import CEvdev

/// What an evdev event node says about itself: identity, location and force-feedback capabilities.
///
/// Produced by ``EvdevDevice`` when it opens a node and by ``DeviceCatalog/discover(directory:)``.
/// A node that could not be opened is still described, with ``accessError`` saying why and the
/// capability fields as far as they could be read (nothing, when the node could not be opened at all).
public struct EvdevDeviceInfo: Hashable, Sendable {
    /// The event node, e.g. `/dev/input/event7`.
    public var path: String
    /// The device name (`EVIOCGNAME`), e.g. `Sony Interactive Entertainment Wireless Controller`.
    public var name: String
    /// Bus, vendor, product and version (`EVIOCGID`).
    public var id: InputID
    /// Physical location (`EVIOCGPHYS`); empty when the driver sets none.
    public var physicalLocation: String
    /// Unique identifier (`EVIOCGUNIQ`), e.g. a controller's MAC address; empty when none.
    public var uniqueIdentifier: String
    /// The force-feedback codes the device advertises (`EVIOCGBIT(EV_FF)`): effect types such as
    /// `FF_RUMBLE` (0x50) and device controls such as `FF_GAIN` (0x60). Bits are claims, not proof.
    public var forceFeedbackCodes: Set<UInt16>
    /// How many effects the device holds at once (`EVIOCGEFFECTS`; 16 on ff-memless gamepads).
    public var slots: Int
    /// Why the node cannot be used for force feedback by this process, or `nil` when it can.
    public var accessError: DeviceError?

    /// Creates a description.
    public init(
        path: String, name: String, id: InputID, physicalLocation: String, uniqueIdentifier: String,
        forceFeedbackCodes: Set<UInt16>, slots: Int, accessError: DeviceError? = nil
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

    /// `FF_RUMBLE`: dual-motor rumble.
    public var supportsRumble: Bool { forceFeedbackCodes.contains(UInt16(FF_RUMBLE)) }
    /// `FF_PERIODIC`: periodic waveforms (single vibra motors; ff-memless flattens them to rumble).
    public var supportsPeriodic: Bool { forceFeedbackCodes.contains(UInt16(FF_PERIODIC)) }
    /// `FF_CONSTANT`: a constant force (wheels, joysticks).
    public var supportsConstant: Bool { forceFeedbackCodes.contains(UInt16(FF_CONSTANT)) }
    /// `FF_GAIN`: a device-wide gain the engine can set with one write.
    public var supportsGain: Bool { forceFeedbackCodes.contains(UInt16(FF_GAIN)) }
    /// `FF_AUTOCENTER`: a self-centring spring (wheels).
    public var supportsAutocenter: Bool { forceFeedbackCodes.contains(UInt16(FF_AUTOCENTER)) }
    /// Whether the device can play anything: at least one effect type and one slot.
    public var hasForceFeedback: Bool { (supportsRumble || supportsPeriodic || supportsConstant) && slots > 0 }
}
