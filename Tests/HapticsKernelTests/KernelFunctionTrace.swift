import Glibc

/// The kernel's function tracer over the force-feedback path, for a soak game that left something
/// behind: every call into evdev's write and ioctl, ff-core, ff-memless, hid-playstation and uhid,
/// beside the game's own steps (written as trace markers), with the kernel's timestamps.
///
/// This is how a stuck motor was traced to ff-memless dropping a stop that came before its timer
/// applied an in-place update (see `EvdevActuator._stream`). Quiet when the guest has no tracefs.
enum KernelFunctionTrace {
    static let root = "/sys/kernel/tracing"

    /// The functions traced: globs as `set_ftrace_filter` reads them.
    static let functions = [
        "evdev_write", "evdev_do_ioctl", "evdev_flush", "evdev_release", "input_open_device", "input_close_device",
        "input_ff_*", "ml_*", "dualsense_*", "hid_hw_output_report", "uhid_*",
    ]

    /// Mounts tracefs if needed and starts the function tracer on `functions`, once per process.
    static let started: Bool = {
        if access("\(root)/trace", F_OK) != 0, mount("tracefs", root, "tracefs", 0, nil) != 0 { return false }
        guard write("tracing_on", "0"), write("current_tracer", "nop") else { return false }
        _ = write("set_ftrace_filter", functions.joined(separator: "\n") + "\n")
        return write("buffer_size_kb", "8192") && write("current_tracer", "function") && write("tracing_on", "1")
    }()

    /// Empties the trace (a new game begins).
    static func clear() {
        guard started else { return }
        _ = write("trace", "")
    }

    /// Writes `text` into the trace, between the kernel's lines.
    static func mark(_ text: String) {
        guard started else { return }
        _ = write("trace_marker", text, truncate: false)
    }

    /// The trace since the last `clear()`, without its header.
    static func lines() -> [Substring] {
        guard started else { return [] }
        let descriptor = open("\(root)/trace", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return [] }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").filter { !$0.hasPrefix("#") }
    }

    @discardableResult
    private static func write(_ file: String, _ text: String, truncate: Bool = true) -> Bool {
        let descriptor = open("\(root)/\(file)", O_WRONLY | O_CLOEXEC | (truncate ? O_TRUNC : 0))
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return text.withCString { Glibc.write(descriptor, $0, strlen($0)) } >= 0
    }
}
