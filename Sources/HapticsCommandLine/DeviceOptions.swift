import HapticsRendering

/// `--device` and `--profile`: where to play.
struct DeviceOptions {
    /// `simulated` (the default when no real device is present).
    var device = "simulated"
    /// The profile the simulated device behaves like.
    var profile: DeviceProfile = .simulated

    /// Consumes `--device`/`--profile` if `item` is one of them; returns whether it was.
    mutating func parse(_ item: ArgumentCursor.Item, _ cursor: inout ArgumentCursor) throws(CommandLineError) -> Bool {
        switch item {
        case let .option("device", inline):
            device = try cursor.value(for: "device", inline: inline)
            guard device == "simulated" else {
                throw .usage("unknown device '\(device)' (available: simulated)")
            }
            return true
        case let .option("profile", inline):
            let name = try cursor.value(for: "profile", inline: inline)
            guard let found = DeviceProfile.named(name) else {
                throw .usage("unknown profile '\(name)' (available: \(DeviceProfile.builtins.map(\.name).joined(separator: ", ")))")
            }
            profile = found
            return true
        default:
            return false
        }
    }

    static let help = [
        HelpRow("--device <name>", "Where to play: simulated (default)."),
        HelpRow("--profile <name>", "Device profile the simulated device behaves like (default: simulated)."),
    ]
}
