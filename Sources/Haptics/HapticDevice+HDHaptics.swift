extension HapticDevice {
    /// Whether the pad's actuators are voice coils that play waveforms — HD haptics, through
    /// ``DualSenseHDHaptics``: a DualSense or DualSense Edge on USB or Bluetooth. Its rumble is
    /// the kernel driver's emulation on the same actuators.
    public var hasVoiceCoils: Bool { triggerTransport != nil }
}

extension DualSenseHDHaptics {
    /// Opens HD haptics on `device`, one of ``HapticEngine/devices``: its hidraw node, and over USB
    /// its sound card, found from the device or named by `audioCard` (a card number, an ALSA id or
    /// a `hw:` device).
    public convenience init(device: HapticDevice, audioCard: String? = nil,
                            rumbleWrites: (@Sendable () -> Int)? = nil) throws(HDHapticsError) {
        guard device.hasVoiceCoils, let path = device.path else {
            throw .node(.noAdaptiveTriggers(
                eventNode: device.path ?? device.name, vendor: device.inputID?.vendor ?? 0, product: device.inputID?.product ?? 0))
        }
        try self.init(eventNode: path, audioCard: audioCard, rumbleWrites: rumbleWrites)
    }
}
