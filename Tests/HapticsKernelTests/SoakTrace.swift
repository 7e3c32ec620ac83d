import HapticsMeasurement

/// The kernel's function tracer over the force-feedback path for the soak: every call into evdev's
/// write and ioctl, ff-core, ff-memless, hid-playstation and uhid, beside the game's own steps
/// (written as trace markers), printed for a game that left something behind. Started once per
/// process; quiet when the guest has no tracefs.
enum SoakTrace {
    /// The functions traced: globs as `set_ftrace_filter` reads them.
    static let functions = [
        "evdev_write", "evdev_do_ioctl", "evdev_flush", "evdev_release", "input_open_device", "input_close_device",
        "input_ff_*", "ml_*", "dualsense_*", "hid_hw_output_report", "uhid_*",
    ]

    static let started = KernelFunctionTrace.start(functions) == nil

    /// Empties the trace (a new game begins).
    static func clear() {
        if started { KernelFunctionTrace.clear() }
    }

    /// Writes `text` into the trace, between the kernel's lines.
    static func mark(_ text: String) {
        if started { KernelFunctionTrace.mark(text) }
    }

    /// The trace since the last `clear()`.
    static func lines() -> [Substring] {
        started ? KernelFunctionTrace.lines() : []
    }
}
