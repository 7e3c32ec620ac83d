import HapticsDevices
import HapticsRendering

/// One haptic device as a game holds it: player 1's pad, player 2's pad.
///
/// A value: `HapticEngine.devices` lists the engine's devices as they are now, and a game keeps
/// the value (or its `id`) to play on that pad alone, to set its gain, switch it off or give it a
/// profile. The `id` is the engine's and stays the same when the pad is unplugged and plugged in
/// again: the engine matches it by `uniqueIdentifier` (a controller's MAC address) when the device
/// has one, else by `inputID` and `physicalLocation` together, and the pad comes back with its
/// settings. The identity fields are what the kernel says about the event node, so a game can
/// match the engine's device to the one its input layer knows: `joystickGUID` is the GUID SDL
/// gives the same node.
public struct HapticDevice: Sendable, Hashable, Identifiable {
    /// The engine's identifier of a device, stable over unplugging and plugging in again.
    public struct ID: Sendable, Hashable, Comparable, CustomStringConvertible {
        /// The number, in the order the engine first saw its devices (0, 1, …).
        public let rawValue: Int

        /// Wraps a number.
        public init(rawValue: Int) {
            self.rawValue = rawValue
        }

        public static func < (a: ID, b: ID) -> Bool { a.rawValue < b.rawValue }

        /// `device 3`.
        public var description: String { "device \(rawValue)" }
    }

    /// Whether the device plays, and if not, why.
    public enum State: Sendable, Hashable, CustomStringConvertible {
        /// The device is open and plays what it is sent.
        case available
        /// The device exists but this process may not open it (`DeviceError.permissionDenied`,
        /// whose description gives the fix: the udev `uaccess` rule), or cannot open it for another
        /// reason the error names. It plays once it can be opened (the engine retries when the
        /// node's permissions change).
        case unavailable(DeviceError)
        /// The device was unplugged or stopped working; it comes back as itself when plugged in
        /// again.
        case lost(DeviceError)

        /// Whether the device plays.
        public var isAvailable: Bool { self == .available }

        /// `available`, or the reason with its fix.
        public var description: String {
            switch self {
            case .available: return "available"
            case let .unavailable(error): return "unavailable: \(error)"
            case let .lost(error): return "lost: \(error)"
            }
        }
    }

    /// The engine's identifier.
    public let id: ID
    /// A name for people: the kernel's name of the device (`Sony Interactive Entertainment
    /// DualSense Wireless Controller`), or the output's name.
    public var name: String
    /// The event node (`/dev/input/event5`) where the device is or was last; `nil` for devices
    /// without one (simulated).
    public var path: String?
    /// The kernel's unique identifier of the device (`EVIOCGUNIQ`, often a MAC address); empty when
    /// the driver gives none.
    public var uniqueIdentifier: String
    /// Bus, vendor, product and version; `nil` for devices without an event node.
    public var inputID: InputID?
    /// The physical location (`EVIOCGPHYS`, e.g. `usb-0000:00:14.0-2/input0`); empty when none.
    public var physicalLocation: String
    /// The joystick GUID SDL gives the same event node, to match SDL's joystick (or a
    /// `gamecontrollerdb.txt` mapping); `nil` for devices without an event node.
    public var joystickGUID: JoystickGUID?
    /// The GUID SDL's HIDAPI backend gives the pad when it drives it through hidraw, with the name
    /// CRC zeroed (SDL's name for the pad is its own); `nil` where SDL's HIDAPI cannot list it.
    /// For SDL builds without `SDL_JoystickPath` (before 2.24): match a joystick whose GUID has
    /// `'h'` in byte 14 against this one, ignoring the CRC
    /// (``JoystickGUID/matchesIgnoringName(_:)``).
    public var hidapiJoystickGUID: JoystickGUID?
    /// The force-feedback codes the driver advertises (`.rumble`, `.periodic`, `.constant`,
    /// `.gain`…): claims, not proof (`haptics verify` tries each). Empty without an event node.
    public var forceFeedbackCodes: Set<ForceFeedbackCode>
    /// How many effects the device holds at once (`EVIOCGEFFECTS`, 16 on most pads); 0 when unknown
    /// (a simulated device, or a node that cannot be opened).
    public var effectSlots: Int
    /// Whether this is the simulated device the engine falls back to when it finds none: nothing
    /// played on it is felt.
    public var isSimulatedFallback: Bool
    /// Whether the device plays, or why not.
    public var state: State
    /// The device's own settings: gain, on/off, profile.
    public var settings: DeviceSettings
    /// The profile the device plays with now (its settings' profile, else the one the catalog
    /// picked for it); `nil` while it is not available.
    public var profile: DeviceProfile?

    /// The SDL joystick GUID as SDL writes it (`0300fd574c050000e60c000011810000`).
    public var joystickGUIDString: String? { joystickGUID?.string }
}

/// A device's own settings, kept by the engine across unplugging and plugging in again.
///
/// They apply on top of the engine-wide ones: a play's intensity is scaled by the engine's `gain`
/// and then by the device's, and a device plays only while both the engine and the device are
/// enabled.
public struct DeviceSettings: Sendable, Hashable {
    /// The device's gain, 0…1 (default 1).
    public var gain: Double
    /// Whether the device plays (default on).
    public var isEnabled: Bool
    /// The profile to render for, replacing the one the device catalog picks; `nil` for the
    /// catalog's. The device's own kernel limits (its effect slots) are kept.
    public var profile: DeviceProfile?
    /// Whether a pad with voice coils (``HapticDevice/hasVoiceCoils``) plays patterns as HD
    /// haptics, waveforms on its actuators, rather than as the kernel's rumble emulation (default
    /// on). Pads without voice coils ignore it.
    public var hdHaptics: Bool
    /// Over USB, the sound card of the pad's voice coils when it is not found from the pad (a card
    /// number, an ALSA id or a `hw:` device); `nil` to find it.
    public var audioCard: String?

    /// Creates settings.
    public init(gain: Double = 1, isEnabled: Bool = true, profile: DeviceProfile? = nil, hdHaptics: Bool = true,
                audioCard: String? = nil) {
        self.gain = gain
        self.isEnabled = isEnabled
        self.profile = profile
        self.hdHaptics = hdHaptics
        self.audioCard = audioCard
    }
}

/// Which devices a play, a preparation or a player goes to: all of them (the default), or a set
/// the game chose.
///
/// A play with a selection walks the engine's channels and checks each device against it without
/// locks or allocation; making a selection of one device (`DeviceSelection(pad)`, what
/// `play(_:on: pad)` does) allocates nothing either, and one of several devices is best made once
/// and kept. A device in the selection that is unplugged is skipped, and plays again when it comes
/// back.
public struct DeviceSelection: Sendable, Hashable, ExpressibleByArrayLiteral {
    private enum Storage: Sendable, Hashable {
        case all
        case one(Int)
        /// Sorted, without repeats.
        case many([Int])
    }

    private let storage: Storage

    /// Every device the engine has, now and later.
    public static let all = DeviceSelection(storage: .all)

    private init(storage: Storage) {
        self.storage = storage
    }

    /// The devices with these identifiers.
    public init(_ ids: [HapticDevice.ID]) {
        let numbers = Array(Set(ids.map(\.rawValue))).sorted()
        storage = numbers.count == 1 ? .one(numbers[0]) : .many(numbers)
    }

    /// These devices.
    public init(_ devices: [HapticDevice]) {
        self.init(devices.map(\.id))
    }

    /// One device.
    public init(_ device: HapticDevice) {
        storage = .one(device.id.rawValue)
    }

    /// The device with this identifier.
    public init(_ id: HapticDevice.ID) {
        storage = .one(id.rawValue)
    }

    /// These devices: `[pad1, pad2]`.
    public init(arrayLiteral devices: HapticDevice...) {
        self.init(devices)
    }

    /// Whether the selection is every device.
    public var isAll: Bool { storage == .all }

    /// The chosen devices' identifiers, in order; `nil` for all devices.
    public var deviceIDs: [HapticDevice.ID]? {
        switch storage {
        case .all: return nil
        case let .one(id): return [HapticDevice.ID(rawValue: id)]
        case let .many(ids): return ids.map(HapticDevice.ID.init(rawValue:))
        }
    }

    /// Whether the device numbered `id` is selected. Lock-free and allocation-free.
    func contains(_ id: Int) -> Bool {
        switch storage {
        case .all: return id >= 0
        case let .one(chosen): return id == chosen
        case let .many(ids):
            for candidate in ids where candidate == id { return true }
            return false
        }
    }
}
