import HapticsMeasurement
import HapticsDevices
import HapticsRendering
import HapticsSystem
import HapticsTriggers
import HapticsVoiceCoils

/// `haptics info`: everything known about one device, and the profile it plays with.
struct InfoCommand: Command {
    static let name = "info"
    static let abstract = "Show one device's identity, capabilities and profile."
    static let usage = ["info <device> [--json]"]
    static let options = [
        HelpRow("<device>", "An event node path (/dev/input/event5) or part of the device's name."),
        HelpRow("--json", "One JSON object."),
    ]

    var device: String
    var json = false

    init(arguments: [String]) throws(CommandLineError) {
        let parsed = try JSONAndPositionals(arguments, maximumPositionals: 1, missing: "missing the device (a path or part of its name)")
        json = parsed.json
        device = parsed.positionals[0]
    }

    func run(_ context: CommandContext) throws(CommandLineError) -> Int32 {
        let info = try DeviceLookup.find(device, context: context)
        let profile = DeviceCatalog.profile(for: info)
        let triggers = Self.triggers(of: info)
        let haptics = Self.haptics(of: info)
        if json {
            var line = JSONLine(record: "device")
            line.add("path", info.path)
            line.add("name", info.name)
            line.add("bus", InputID.hex4(info.id.bus))
            line.add("vendor", InputID.hex4(info.id.vendor))
            line.add("product", InputID.hex4(info.id.product))
            line.add("version", InputID.hex4(info.id.version))
            line.add("phys", info.physicalLocation)
            line.add("uniq", info.uniqueIdentifier)
            line.add("ff", raw: "[" + ForceFeedbackNames.names(info.forceFeedbackCodes).map(JSONLine.quote).joined(separator: ",") + "]")
            line.add("slots", info.slots)
            line.add("profile", profile.name)
            line.add("rise_ms", profile.riseTime.inMilliseconds, digits: 1)
            line.add("access", info.accessError == nil ? "read-write" : "denied")
            line.add("actuators", haptics.actuators)
            line.add("hd_haptics", haptics.transport?.rawValue ?? "none")
            if let card = haptics.card { line.add("audio_card", card) } else { line.add("audio_card", raw: "null") }
            line.add("triggers", triggers.transport?.rawValue ?? "none")
            if let node = triggers.node { line.add("hidraw", node) } else { line.add("hidraw", raw: "null") }
            context.console.line(line.text)
            return ExitStatus.success
        }
        // Everything but the numbers comes from outside: the node's path, the kernel's strings.
        let rows = [
            HelpRow("path", PrintableText.escaped(info.path)),
            HelpRow("name", PrintableText.escaped(info.name)),
            HelpRow("id", "bus \(InputID.hex4(info.id.bus)) vendor \(InputID.hex4(info.id.vendor)) product \(InputID.hex4(info.id.product)) version \(InputID.hex4(info.id.version))"),
            HelpRow("phys", info.physicalLocation.isEmpty ? "-" : PrintableText.escaped(info.physicalLocation)),
            HelpRow("uniq", info.uniqueIdentifier.isEmpty ? "-" : PrintableText.escaped(info.uniqueIdentifier)),
            HelpRow("effects", ForceFeedbackNames.names(info.forceFeedbackCodes).joined(separator: " ")),
            HelpRow("slots", String(info.slots)),
            HelpRow("profile", "\(profile.name) (\(profile.displayName)), rise \(JSONLine.number(profile.riseTime.inMilliseconds, digits: 1)) ms"),
            HelpRow("access", info.accessError.map { PrintableText.escaped($0.description) } ?? "read-write"),
            HelpRow("triggers", PrintableText.escaped(triggers.text)),
            HelpRow("haptics", PrintableText.escaped(haptics.text)),
        ]
        for row in rows { context.console.line(row.syntax + ":" + String(repeating: " ", count: 9 - row.syntax.count) + row.help) }
        return ExitStatus.success
    }

    /// The device's actuators (`voice-coils`, `rumble` or `none`) and, for voice coils, how HD
    /// haptics reach them: over USB the pad's sound card, over Bluetooth its hidraw node, or why not.
    static func haptics(of info: EvdevDeviceInfo) -> (text: String, actuators: String, transport: DualSenseTransport?, card: String?) {
        guard TriggerNode.hasAdaptiveTriggers(vendor: info.id.vendor, product: info.id.product),
              let transport = TriggerNode.transport(bus: info.id.bus) else {
            return info.forceFeedbackCodes.contains(.rumble) ? ("rumble motors", "rumble", nil, nil) : ("none", "none", nil, nil)
        }
        switch transport {
        case .usb:
            do {
                let card = try VoiceCoilSoundCard.locate(eventNode: info.path)
                return ("2 voice coils, HD haptics over USB through \(card)", "voice-coils", transport, card.device)
            } catch {
                return ("2 voice coils, HD haptics over USB not reachable: \(error)", "voice-coils", transport, nil)
            }
        case .bluetooth:
            do {
                let node = try TriggerNode.locate(eventNode: info.path)
                return ("2 voice coils, HD haptics over Bluetooth through \(node.path)", "voice-coils", transport, nil)
            } catch {
                return ("2 voice coils, HD haptics over Bluetooth not reachable: \(error)", "voice-coils", transport, nil)
            }
        }
    }

    /// What the pad's adaptive triggers are reached through: the transport and hidraw node, or why
    /// not; `none` for a device without them.
    static func triggers(of info: EvdevDeviceInfo) -> (text: String, transport: DualSenseTransport?, node: String?) {
        guard TriggerNode.hasAdaptiveTriggers(vendor: info.id.vendor, product: info.id.product) else { return ("none", nil, nil) }
        let transport = TriggerNode.transport(bus: info.id.bus)
        do {
            let node = try TriggerNode.locate(eventNode: info.path)
            return ("adaptive, \(node.transport) through \(node.path)", transport, node.path)
        } catch {
            return ("adaptive, not reachable: \(error)", transport, nil)
        }
    }
}
