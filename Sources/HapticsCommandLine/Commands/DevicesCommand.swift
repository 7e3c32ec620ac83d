import HapticsMeasurement
import HapticsDevices
import HapticsSystem

/// `haptics devices`: the force-feedback devices present, and nodes that cannot be opened.
struct DevicesCommand: Command {
    static let name = "devices"
    static let abstract = "List the force-feedback devices."
    static let usage = ["devices [--json]"]
    static let options = [HelpRow("--json", "One JSON object per device, then a summary.")]
    static let discussion = """
        Columns: event node, name, bus:vendor:product, force-feedback types, effect slots, and the
        device profile feedback is rendered with. Nodes that may not be opened for writing are listed
        too, with what to do about it. With --json the last line is always the summary, also when
        nothing is found: {"devices":N,"denied":M,"directory":"/dev/input"} (M of the N without access).
        Each JSON line also has the version, uniq (often a MAC address), phys and sdl_guid: the joystick
        GUID SDL gives the same node, to match a game's SDL joystick or a gamecontrollerdb.txt row.
        sdl_hidapi_guid, when SDL's HIDAPI backend could drive the pad through hidraw, is the GUID it
        gives the pad then, with its name CRC (bytes 2-3) zeroed.
        """

    var json = false

    init(arguments: [String]) throws(CommandLineError) {
        json = try JSONAndPositionals(arguments, maximumPositionals: 0).json
    }

    func run(_ context: CommandContext) throws(CommandLineError) -> Int32 {
        let directory = DeviceLookup.directory(context)
        try DeviceLookup.checkReadable(directory)
        context.console.write(Self.format(DeviceCatalog.discover(directory: directory), directory: directory, json: json))
        return ExitStatus.success
    }

    /// The listing of `devices` found in `directory`: a table followed by a note per node that
    /// cannot be opened, or one JSON line per device followed by the summary line.
    /// `sysfsRoot` is where the release number of a USB pad is read for `sdl_hidapi_guid`.
    static func format(
        _ devices: [EvdevDeviceInfo], directory: String, json: Bool, sysfsRoot: String = DeviceCatalog.sysfsInputRoot
    ) -> String {
        if json {
            return devices.map { jsonLine($0, sysfsRoot: sysfsRoot) + "\n" }.joined() + summaryLine(devices, directory: directory) + "\n"
        }
        guard !devices.isEmpty else { return "no force-feedback devices in \(PrintableText.escaped(directory))\n" }
        var rows = [["PATH", "NAME", "ID", "FF", "SLOTS", "PROFILE"]]
        for device in devices {
            // A node that could not even be opened read-only has nothing but its path.
            let known = !device.name.isEmpty || device.slots > 0
            // The path and the name come from outside (a folder's entries, the kernel's device name).
            rows.append([
                PrintableText.escaped(device.path),
                device.name.isEmpty ? "?" : PrintableText.escaped(device.name),
                known ? device.id.busVendorProduct : "?",
                known ? ForceFeedbackNames.effectTypes(device.forceFeedbackCodes).joined(separator: ",") : "?",
                known ? String(device.slots) : "?",
                device.accessError == nil ? DeviceCatalog.profile(for: device).name : "(no access)",
            ])
        }
        var text = table(rows)
        for device in devices {
            if let error = device.accessError { text += "note: \(PrintableText.escaped(error.description))\n" }
        }
        return text
    }

    /// One device as a JSON line.
    static func jsonLine(_ device: EvdevDeviceInfo, sysfsRoot: String = DeviceCatalog.sysfsInputRoot) -> String {
        var line = JSONLine(record: "device")
        line.add("path", device.path)
        line.add("name", device.name)
        line.add("bus", InputID.hex4(device.id.bus))
        line.add("vendor", InputID.hex4(device.id.vendor))
        line.add("product", InputID.hex4(device.id.product))
        line.add("version", InputID.hex4(device.id.version))
        line.add("uniq", device.uniqueIdentifier)
        line.add("phys", device.physicalLocation)
        // What SDL calls the same node; a node nothing could be read of has none.
        if !device.name.isEmpty || device.id.vendor != 0 { line.add("sdl_guid", device.joystickGUID.string) }
        if let hidapi = DeviceCatalog.hidapiJoystickGUID(of: device, sysfsRoot: sysfsRoot) {
            line.add("sdl_hidapi_guid", hidapi.string)
        }
        line.add("ff", raw: "[" + ForceFeedbackNames.names(device.forceFeedbackCodes).map(JSONLine.quote).joined(separator: ",") + "]")
        line.add("slots", device.slots)
        line.add("profile", DeviceCatalog.profile(for: device).name)
        if let error = device.accessError {
            line.add("access", "denied")
            line.add("error", error.description)
        } else {
            line.add("access", "read-write")
        }
        return line.text
    }

    /// The last JSON line: how many devices were listed, how many of them without access, and where
    /// they were looked for. Printed when nothing was found too, so a script always gets an answer.
    static func summaryLine(_ devices: [EvdevDeviceInfo], directory: String) -> String {
        var line = JSONLine(record: "devices")
        line.add("devices", devices.count)
        line.add("denied", devices.filter { $0.accessError != nil }.count)
        line.add("directory", directory)
        return line.text
    }

    /// Left-aligned columns separated by two spaces; the last column is not padded.
    static func table(_ rows: [[String]]) -> String {
        guard let columns = rows.first?.count else { return "" }
        let widths = (0..<columns).map { column in rows.map { $0[column].count }.max() ?? 0 }
        var text = ""
        for row in rows {
            var line = ""
            for (column, cell) in row.enumerated() {
                line += column == columns - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count + 2)
            }
            text += line + "\n"
        }
        return text
    }
}
