import Glibc
import HapticsSystem

extension DeviceCatalog {
    /// The sysfs folder of the device a node belongs to, with every link resolved: for an input
    /// node (`/dev/input/event5`, `/dev/input/js0`) the parent of its input device, for a hidraw
    /// node (`/dev/hidraw3`) its HID device. A pad's event node and its hidraw node give the same
    /// folder (its HID device), which is how a game's `SDL_JoystickPath` under SDL's HIDAPI backend
    /// finds the engine's device. `path` may be a link (`/dev/input/by-id/…`). `nil` when sysfs
    /// does not know the node, or its input device has no parent (a uinput device).
    public static func parentDevice(ofNode path: String, sysfs: String = "/sys") -> String? {
        let node = resolvedNode(path)
        guard let name = node.split(separator: "/").last else { return nil }
        if name.hasPrefix("hidraw") { return resolvedPath("\(sysfs)/class/hidraw/\(name)/device") }
        if name.hasPrefix("event") || name.hasPrefix("js") { return resolvedPath("\(sysfs)/class/input/\(name)/device/device") }
        return nil
    }

    /// The node at `path` with every link resolved, or `path` itself when it does not exist.
    public static func resolvedNode(_ path: String) -> String { resolvedPath(path) ?? path }

    /// `path` with every symbolic link resolved (`realpath`), or `nil` when it does not exist.
    static func resolvedPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
