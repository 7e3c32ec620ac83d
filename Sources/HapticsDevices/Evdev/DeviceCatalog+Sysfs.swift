import HapticsSystem

extension DeviceCatalog {
    /// Where the kernel describes input devices to everyone: `<root>/eventN/device/` has `name`,
    /// `phys`, `uniq`, `id/{bustype,vendor,product,version}` and `capabilities/ff`, readable
    /// without the permission the event node itself needs.
    public static let sysfsInputRoot = "/sys/class/input"

    /// Describes the event node at `path` from sysfs (`sysfsRoot/eventN/device/`): its name,
    /// identity, location and force-feedback codes, with no slot count (only the node answers
    /// `EVIOCGEFFECTS`). `nil` when sysfs does not describe it, or it has no force-feedback effect
    /// type. Used for a node this process may not open at all, so that it is still listed as the
    /// device it is (with its SDL GUID) and a node without force feedback is not listed.
    public static func describeFromSysfs(path: String, sysfsRoot: String = sysfsInputRoot) -> EvdevDeviceInfo? {
        guard let node = path.split(separator: "/").last, node.hasPrefix("event") else { return nil }
        let device = "\(sysfsRoot)/\(node)/device/"
        func text(_ name: String) -> String? {
            guard let bytes = try? FileDescriptor.readContents(ofFile: device + name, maximumSize: 4_096) else { return nil }
            var text = bytes
            while text.last == UInt8(ascii: "\n") { text.removeLast() }
            return String(decoding: text, as: UTF8.self)
        }
        func hex(_ name: String) -> UInt16? { text("id/" + name).flatMap { UInt16($0, radix: 16) } }
        guard let capabilities = text("capabilities/ff"), let name = text("name"),
              let bus = hex("bustype"), let vendor = hex("vendor"), let product = hex("product"), let version = hex("version")
        else { return nil }
        let codes = forceFeedbackCodes(bitmap: capabilities)
        guard codes.contains(where: { [.rumble, .periodic, .constant].contains($0) }) else { return nil }
        return EvdevDeviceInfo(path: path, name: name, id: InputID(bus: bus, vendor: vendor, product: product, version: version),
                               physicalLocation: text("phys") ?? "", uniqueIdentifier: text("uniq") ?? "",
                               forceFeedbackCodes: codes, slots: 0)
    }

    /// The codes set in a sysfs capability bitmap: hex words of the kernel's `long` size, the most
    /// significant first, separated by spaces (`107030000 0`).
    static func forceFeedbackCodes(bitmap: String) -> Set<ForceFeedbackCode> {
        var codes: Set<ForceFeedbackCode> = []
        let words = bitmap.split(separator: " ").reversed()
        for (index, word) in words.enumerated() {
            guard let value = UInt64(word, radix: 16) else { return [] }
            for bit in 0..<64 where value & (1 << UInt64(bit)) != 0 {
                codes.insert(ForceFeedbackCode(rawValue: UInt16(index * 64 + bit)))
            }
        }
        return codes
    }
}
