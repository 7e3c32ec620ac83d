extension HapticDevice {
    /// Whether the pad has adaptive triggers (a DualSense or DualSense Edge, by vendor and
    /// product): ``AdaptiveTriggers/init(device:)`` sets their effects.
    public var hasAdaptiveTriggers: Bool {
        inputID.map { TriggerNode.hasAdaptiveTriggers(vendor: $0.vendor, product: $0.product) } ?? false
    }

    /// How a pad with adaptive triggers is connected (USB or Bluetooth), which decides the reports
    /// its triggers are sent; `nil` for any other device.
    public var triggerTransport: DualSenseTransport? {
        guard hasAdaptiveTriggers, let inputID else { return nil }
        return TriggerNode.transport(bus: inputID.bus)
    }
}

extension AdaptiveTriggers {
    /// Opens the adaptive triggers of `device`, one of ``HapticEngine/devices``: finds the hidraw
    /// node above its event node and opens it. Throws
    /// ``TriggerDeviceError/noAdaptiveTriggers(eventNode:vendor:product:)`` for a device without
    /// them, ``TriggerDeviceError/unknownInputDevice(eventNode:)`` for one without an event node.
    public convenience init(device: HapticDevice) throws(TriggerDeviceError) {
        guard let path = device.path else { throw .unknownInputDevice(eventNode: device.name) }
        try self.init(eventNode: path)
    }
}
