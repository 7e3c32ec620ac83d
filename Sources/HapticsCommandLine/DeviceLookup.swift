import Glibc
import HapticsDevices
import HapticsSystem

/// Finds the event node a command names: a path, or a part of the device's name.
enum DeviceLookup {
    /// Where event nodes are looked for: `/dev/input`, or `HAPTICS_INPUT_DIRECTORY` (tests and
    /// containers point it elsewhere).
    static func directory(_ context: CommandContext) -> String {
        context.environment["HAPTICS_INPUT_DIRECTORY"] ?? "/dev/input"
    }

    /// Fails, saying why, when `directory` cannot be listed: a missing folder is no empty one.
    static func checkReadable(_ directory: String) throws(CommandLineError) {
        guard let handle = opendir(directory) else {
            throw .failure("cannot list \(PrintableText.escaped(directory)): \(Errno(rawValue: errno).message)")
        }
        closedir(handle)
    }

    /// The force-feedback device named by `argument`: an event node path, or a case-insensitive
    /// part of one device's name.
    static func find(_ argument: String, context: CommandContext) throws(CommandLineError) -> EvdevDeviceInfo {
        let directory = directory(context)
        let found = DeviceCatalog.discover(directory: directory)
        if argument.hasPrefix("/") {
            if let info = found.first(where: { $0.path == argument }) { return info }
            // Not listed: say why (missing node, no force feedback, not an input device).
            do {
                let device = try EvdevDevice(path: argument)
                defer { device.close() }
                return device.info
            } catch {
                throw .failure(error.description)
            }
        }
        let matches = found.filter { $0.name.lowercased().contains(argument.lowercased()) }
        switch matches.count {
        case 1:
            return matches[0]
        case 0:
            let names = found.map { "\($0.path) \($0.name)" }
            throw .failure("no force-feedback device named like '\(argument)' in \(directory)"
                + (names.isEmpty ? "" : " (found: \(names.joined(separator: ", ")))"))
        default:
            throw .failure("'\(argument)' names several devices: \(matches.map(\.path).joined(separator: ", ")); give the path")
        }
    }
}
