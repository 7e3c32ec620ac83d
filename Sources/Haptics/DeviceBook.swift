import HapticsDevices
import HapticsRendering
import HapticsScheduler

/// The control side's record of every device the engine has seen and of what each scheduler
/// channel serves. Under `HapticEngine.book`; never read by plays.
struct DeviceBook {
    /// One device the engine has seen.
    struct Record {
        var device: HapticDevice
        /// The channel it plays on while available, else the one it last played on.
        var channel: ChannelID?
        /// Whether `HapticEngine.devices` lists it (a device the app removed is kept for matching
        /// but not listed).
        var isListed = true
    }

    /// One scheduler channel.
    struct Channel {
        /// What the scheduler drives: forwards to the channel's current device.
        let outlet: ChannelOutlet
        /// The channel's profile in the scheduler (clamped): a channel serves devices of this
        /// profile, or of another once it is free and the scheduler's profile is changed.
        var profile: DeviceProfile
        /// `nil` while a device plays on it; else the point after which the scheduler has let go of
        /// the players of the device it last served, and the channel may serve another one.
        var freeAfter: ProcessingMark?
    }

    var records: [Record] = []
    var channels: [Channel] = []

    /// The record of a device not playing now that `output` is, if any: by unique identifier when
    /// the device has one, else by bus/vendor/product/version and physical location together; a
    /// device known by nothing but its event node (one that could not be read, or an output without
    /// identity) by that node.
    func match(_ output: HapticEngine.Output) -> Int? {
        records.indices.first { index in
            let record = records[index]
            guard !record.device.state.isAvailable, !record.device.isSimulatedFallback else { return false }
            return Self.sameDevice(record.device, output.eventNode, path: output.path)
        }
    }

    /// The record of the node `info` describes (for a node that cannot be opened), if any.
    func match(unavailable info: EvdevDeviceInfo) -> Int? {
        records.indices.first { index in
            let record = records[index]
            guard !record.device.state.isAvailable else { return false }
            return Self.sameDevice(record.device, info, path: info.path)
        }
    }

    /// Whether `device` is the one `info` (or, without one, the node at `path`) describes.
    static func sameDevice(_ device: HapticDevice, _ info: EvdevDeviceInfo?, path: String?) -> Bool {
        // A device known by nothing but its node (refused before anything of it could be read, or
        // an output without an event node) is matched by its node alone.
        if device.inputID == nil { return device.path != nil && device.path == path }
        guard let info, info.id.vendor != 0 || !info.uniqueIdentifier.isEmpty || !info.name.isEmpty else { return false }
        if !info.uniqueIdentifier.isEmpty { return device.uniqueIdentifier == info.uniqueIdentifier }
        if device.inputID == info.id && !info.physicalLocation.isEmpty && device.uniqueIdentifier.isEmpty {
            return device.physicalLocation == info.physicalLocation
        }
        return false
    }

    /// A new device's public value.
    static func device(id: Int, output: HapticEngine.Output) -> HapticDevice {
        let node = output.eventNode
        return HapticDevice(
            id: HapticDevice.ID(rawValue: id), name: node?.name ?? output.name, path: output.path,
            uniqueIdentifier: node?.uniqueIdentifier ?? "", inputID: node?.id,
            physicalLocation: node?.physicalLocation ?? "", joystickGUID: node?.joystickGUID,
            hidapiJoystickGUID: node.flatMap { DeviceCatalog.hidapiJoystickGUID(of: $0) },
            forceFeedbackCodes: node?.forceFeedbackCodes ?? [], effectSlots: node?.slots ?? 0,
            isSimulatedFallback: output.isFallback, state: .available, settings: DeviceSettings(),
            profile: output.profile)
    }

    /// The public value of a node that exists but cannot be opened.
    static func device(id: Int, unavailable info: EvdevDeviceInfo, error: DeviceError) -> HapticDevice {
        let known = info.id.vendor != 0 || !info.name.isEmpty
        return HapticDevice(
            id: HapticDevice.ID(rawValue: id), name: info.name.isEmpty ? info.path : info.name, path: info.path,
            uniqueIdentifier: info.uniqueIdentifier, inputID: known ? info.id : nil,
            physicalLocation: info.physicalLocation, joystickGUID: known ? info.joystickGUID : nil,
            hidapiJoystickGUID: known ? DeviceCatalog.hidapiJoystickGUID(of: info) : nil,
            forceFeedbackCodes: info.forceFeedbackCodes, effectSlots: info.slots,
            isSimulatedFallback: false, state: .unavailable(error), settings: DeviceSettings(), profile: nil)
    }
}
