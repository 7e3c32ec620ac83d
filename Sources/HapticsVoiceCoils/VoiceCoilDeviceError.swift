/// Why a pad's voice coils cannot be reached, with what it is about and the fix where there is one.
public enum VoiceCoilDeviceError: Error, Hashable, Sendable, CustomStringConvertible {
    /// sysfs does not describe the input device (no such node, or not an event node).
    case unknownInputDevice(eventNode: String)
    /// No sound card shares the pad's USB device: the pad is on Bluetooth, or `snd-usb-audio` is
    /// not loaded.
    case noSoundCard(eventNode: String)
    /// A card a user named is not in sysfs.
    case unknownSoundCard(String)

    /// One line saying what failed, where, and the fix where there is one.
    public var description: String {
        switch self {
        case .unknownInputDevice(let eventNode):
            "\(eventNode) is not an input device sysfs knows"
        case .noSoundCard(let eventNode):
            "no sound card shares the USB device of \(eventNode): over Bluetooth the pad has none; over USB, "
                + "load snd-usb-audio, or name the card"
        case .unknownSoundCard(let name):
            "no sound card \"\(name)\": give a card number, a card id (see /proc/asound/cards) or an ALSA hw: device"
        }
    }
}
