import Glibc
import Haptics
import HapticsDevices
import HapticsRendering
import HapticsSystem

/// `--device` and `--profile`: where to play, and how the device is rendered for.
struct DeviceOptions {
    /// `--device` as given; `nil`: the first force-feedback device this process can open, else simulated.
    var deviceArgument: String?
    /// `--profile` as given (a built-in name or a profile file), `nil` when not given.
    var profileArgument: String?
    /// The profile of `--profile`, else the simulated device's.
    var profile: DeviceProfile = .simulated

    /// Consumes `--device`/`--profile` if `item` is one of them; returns whether it was.
    mutating func parse(_ item: ArgumentCursor.Item, _ cursor: inout ArgumentCursor) throws(CommandLineError) -> Bool {
        if case let .option("device", inline) = item {
            deviceArgument = try cursor.value(for: "device", inline: inline)
            return true
        }
        return try parseProfile(item, &cursor)
    }

    /// Consumes `--profile` only (commands that play on no device).
    mutating func parseProfile(_ item: ArgumentCursor.Item, _ cursor: inout ArgumentCursor) throws(CommandLineError) -> Bool {
        guard case let .option("profile", inline) = item else { return false }
        let argument = try cursor.value(for: "profile", inline: inline)
        profile = try Self.profile(argument)
        profileArgument = argument
        return true
    }

    /// A built-in profile by name, else a profile file (docs/reference/profiles.md, "Profile files").
    static func profile(_ argument: String) throws(CommandLineError) -> DeviceProfile {
        if let found = DeviceProfile.named(argument) { return found }
        // A bare word that is no built-in name and no file is a mistyped name.
        if !argument.contains("/"), !argument.contains("."), access(argument, F_OK) != 0 {
            throw .usage("unknown profile '\(argument)' (available: \(DeviceProfile.builtins.map(\.name).joined(separator: ", ")), or a profile file)")
        }
        do {
            return try DeviceProfile(contentsOf: argument)
        } catch {
            throw .failure(error.description)
        }
    }

    /// Whether the simulated device is asked for.
    var isSimulated: Bool { deviceArgument == "simulated" }

    /// The event node to play on, or `nil` for the simulated device. Without `--device` that is the
    /// first force-feedback device this process can open, else (said on standard error) simulated;
    /// `simulatedOnly` (outputs that draw what the simulated device did) keeps it simulated.
    func realDevice(_ context: CommandContext, simulatedOnly: Bool = false) throws(CommandLineError) -> String? {
        switch deviceArgument {
        case "simulated"?:
            return nil
        case let argument?:
            return try DeviceLookup.find(argument, context: context).path
        case nil:
            guard !simulatedOnly else { return nil }
            let directory = DeviceLookup.directory(context)
            guard let first = DeviceCatalog.discover(directory: directory).first(where: { $0.accessError == nil }) else {
                context.console.errorLine("no force-feedback device in \(PrintableText.escaped(directory)); playing on the simulated device")
                return nil
            }
            return first.path
        }
    }

    /// The device at `path` as an engine output: the profile of `--profile` when given (with the
    /// device's own slot count: the kernel's limit), else the one the device catalog picks.
    func output(path: String) throws(CommandLineError) -> HapticEngine.Output {
        let output: HapticEngine.Output
        do {
            output = try HapticEngine.evdevOutput(path: path)
        } catch {
            throw .failure(error.description)
        }
        guard profileArgument != nil else { return output }
        var profile = self.profile
        profile.limits.slots = output.profile.limits.slots
        return HapticEngine.Output(device: output.device, profile: profile, name: output.name, path: output.path,
                                   eventNode: output.eventNode)
    }

    static let help = [
        HelpRow("--device <device>", "Where to play: an event node path, part of a device's name, or simulated. Default: the first force-feedback device, else simulated."),
        profileHelp,
    ]

    static let profileHelp = HelpRow("--profile <name|file>", "The device profile to render for: a built-in name (dualsense, xbox, generic-rumble, …) or a profile file. Default: the device's own, simulated for the simulated device.")
}
