import Glibc
import HapticsSystem

/// The sound card of a DualSense on USB, whose playback channels 2 and 3 drive its voice coils,
/// as the ALSA `hw:` device to open.
///
/// The pad is one USB device with an audio interface and a HID interface: the card's
/// `/sys/class/sound/cardN/device` is the audio interface, and the USB device above it is also an
/// ancestor of the pad's input device. ``locate(eventNode:sysfsRoot:)`` pairs them that way;
/// ``init(override:sysfsRoot:)`` takes the card a user names instead, for setups where the pairing
/// fails (a hub that splits the pad, a card renamed by a rule).
public struct VoiceCoilSoundCard: Sendable, Hashable, CustomStringConvertible {
    /// The ALSA device to open, `hw:N,0` (or the `hw:` string a user gave).
    public var device: String
    /// The card's number, when known.
    public var number: Int?
    /// The card's ALSA id (`/sys/class/sound/cardN/id`, e.g. `Controller`), when known.
    public var id: String?

    /// Creates a description of a card.
    public init(device: String, number: Int?, id: String?) {
        self.device = device
        self.number = number
        self.id = id
    }

    /// `hw:1,0 (card 1, Controller)`.
    public var description: String {
        var details: [String] = []
        if let number { details.append("card \(number)") }
        if let id { details.append(id) }
        return details.isEmpty ? device : "\(device) (\(details.joined(separator: ", ")))"
    }

    /// The card of the pad behind `eventNode` (`/dev/input/event5`): the card whose audio
    /// interface hangs off the same USB device as the pad's input device. Reads sysfs only.
    ///
    /// Throws ``VoiceCoilDeviceError/unknownInputDevice(eventNode:)`` when sysfs does not know the
    /// node and ``VoiceCoilDeviceError/noSoundCard(eventNode:)`` when no card shares its USB device
    /// (a pad on Bluetooth, or `snd-usb-audio` not loaded).
    public static func locate(eventNode: String, sysfsRoot: String = "/sys") throws(VoiceCoilDeviceError) -> VoiceCoilSoundCard {
        guard let name = eventNode.split(separator: "/").last, name.hasPrefix("event"),
              let input = resolve("\(sysfsRoot)/class/input/\(name)/device") else {
            throw .unknownInputDevice(eventNode: eventNode)
        }
        for card in FileDescriptor.numberedEntries(in: "\(sysfsRoot)/class/sound", prefix: "card") {
            guard let interface = resolve("\(card)/device"), let slash = interface.lastIndex(of: "/") else { continue }
            let usbDevice = interface[..<slash]
            guard !usbDevice.isEmpty, input.hasPrefix(usbDevice + "/") else { continue }
            let number = Int(card.split(separator: "/").last?.dropFirst(4) ?? "")
            return VoiceCoilSoundCard(device: "hw:\(number ?? 0),0", number: number, id: readID(card))
        }
        throw .noSoundCard(eventNode: eventNode)
    }

    /// The card a user named: a number (`2`), a card id (`Controller`) or an ALSA `hw:` device
    /// (`hw:2`, `hw:2,0`, `hw:CARD=Controller,DEV=0`), taken as it is. A number or an id must name
    /// a card in sysfs.
    public init(override text: String, sysfsRoot: String = "/sys") throws(VoiceCoilDeviceError) {
        let trimmed = text.trimmingWhitespace
        if trimmed.hasPrefix("hw:") && trimmed.count > 3 {
            self.init(device: trimmed, number: nil, id: nil)
            return
        }
        for card in FileDescriptor.numberedEntries(in: "\(sysfsRoot)/class/sound", prefix: "card") {
            let number = Int(card.split(separator: "/").last?.dropFirst(4) ?? "")
            let id = Self.readID(card)
            if let number, Int(trimmed) == number || (id != nil && id == trimmed) {
                self.init(device: "hw:\(number),0", number: number, id: id)
                return
            }
        }
        throw .unknownSoundCard(trimmed)
    }

    private static func readID(_ card: String) -> String? {
        guard let bytes = try? FileDescriptor.readContents(ofFile: "\(card)/id", maximumSize: 4_096) else { return nil }
        let id = String(decoding: bytes, as: UTF8.self).trimmingWhitespace
        return id.isEmpty ? nil : id
    }

    private static func resolve(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

extension String {
    fileprivate var trimmingWhitespace: String {
        let characters = Array(self)
        guard let first = characters.firstIndex(where: { !$0.isWhitespace }),
              let last = characters.lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(characters[first...last])
    }
}
