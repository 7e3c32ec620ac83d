import Glibc

/// The kernel's function tracer (tracefs): entries of chosen kernel functions with the kernel id of
/// the calling thread and the instant of each, beside marks of our own.
///
/// Two users: a benchmark splits a call's way to the wire (where the call reached the kernel,
/// `evdev_write`; when the driver's worker began sending the report; when the caller's `write()`
/// returned, the `syscalls:sys_exit_write` event), and the soak prints what the kernel did during a
/// game that left a motor running (this is how a stuck motor was traced to ff-memless dropping a
/// stop that came before its timer applied an in-place update). Only in a guest with tracefs, as
/// root; ``start(_:writeReturns:)`` says why not elsewhere.
package enum KernelFunctionTrace {
    /// One traced entry.
    package struct Entry: Equatable, Sendable {
        package let thread: Int32
        /// `CLOCK_MONOTONIC` nanoseconds (the trace clock `mono`).
        package let instant: Int64
        package let function: String

        package init(thread: Int32, instant: Int64, function: String) {
            self.thread = thread
            self.instant = instant
            self.function = function
        }
    }

    package static let root = "/sys/kernel/tracing"

    /// Mounts tracefs where needed, empties the trace and traces entries of `functions` (globs as
    /// `set_ftrace_filter` reads them) from now on, and with `writeReturns` the returns of
    /// `write()`; `nil`, or what failed.
    package static func start(_ functions: [String], writeReturns: Bool = false) -> String? {
        if access("\(root)/trace", F_OK) != 0, mount("tracefs", root, "tracefs", 0, nil) != 0 {
            return "cannot mount tracefs at \(root): \(String(cString: strerror(errno)))"
        }
        for (file, value) in [("tracing_on", "0"), ("current_tracer", "nop"), ("trace_clock", "mono"),
                              ("buffer_size_kb", "8192"), ("set_ftrace_filter", "")] {
            if let failure = write(value, to: file) { return failure }
        }
        // One name per write: the filter's parser takes a word at a time.
        for function in functions {
            if let failure = write(function, to: "set_ftrace_filter", appending: true) {
                return "\(failure) (is \(function) traceable?)"
            }
        }
        if let failure = write(writeReturns ? "1" : "0", to: "events/syscalls/sys_exit_write/enable") { return failure }
        for (file, value) in [("current_tracer", "function"), ("trace", ""), ("tracing_on", "1")] {
            if let failure = write(value, to: file) { return failure }
        }
        return nil
    }

    /// Stops tracing; the trace stays readable until the next ``start(_:writeReturns:)`` (a change
    /// of tracer would empty it).
    package static func stop() {
        _ = write("0", to: "tracing_on")
        _ = write("0", to: "events/syscalls/sys_exit_write/enable")
    }

    /// Switches the trace events `names` ("sched/sched_switch", …) on or off, beside the function
    /// entries; `nil`, or what failed.
    /// With `filter` ("common_pid == 123"), only the events that pass it are recorded; switching
    /// off clears the filter.
    package static func setEvents(_ names: [String], enabled: Bool, filter: String? = nil) -> String? {
        for name in names {
            if let failure = write(enabled ? filter ?? "0" : "0", to: "events/\(name)/filter") { return failure }
            if let failure = write(enabled ? "1" : "0", to: "events/\(name)/enable") { return failure }
        }
        return nil
    }

    /// Empties the trace.
    package static func clear() {
        _ = write("", to: "trace")
    }

    /// Writes `text` into the trace, between the kernel's lines.
    package static func mark(_ text: String) {
        _ = write(text, to: "trace_marker", appending: true)
    }

    /// The trace's lines, without its header.
    package static func lines() -> [Substring] {
        readWhole("\(root)/trace").split(separator: "\n").filter { !$0.hasPrefix("#") }
    }

    /// One line of the trace, taken apart.
    package struct Line: Equatable, Sendable {
        /// The task's name and kernel thread id, "haptics-bench-123".
        package let task: Substring
        package let thread: Int32
        /// The flags: interrupts off (`d`), need-resched (`N`), hard or soft interrupt context,
        /// the preemption count.
        package let flags: Substring
        /// `CLOCK_MONOTONIC` nanoseconds (the trace clock `mono`).
        package let instant: Int64
        /// What happened: "evdev_write <-vfs_write", "sched_wakeup: comm=…".
        package let text: Substring
    }

    /// `line` taken apart; `nil` for a line of another form.
    ///
    /// "   haptics-bench-123     [000] dN.6.   123.456789: sched_wakeup: comm=kworker/0:1 …"
    package static func parse(_ line: Substring) -> Line? {
        guard let bracket = line.firstIndex(of: "]"),
              let task = line[..<bracket].split(separator: " ").dropLast().last,
              let dash = task.lastIndex(of: "-"),
              let thread = Int32(task[task.index(after: dash)...]) else { return nil }
        let rest = line[line.index(after: bracket)...]
        let fields = rest.split(separator: " ", maxSplits: 2)
        guard fields.count == 3, fields[1].hasSuffix(":"), let instant = nanoseconds(fields[1].dropLast()) else { return nil }
        return Line(task: task, thread: thread, flags: fields[0], instant: instant, text: fields[2])
    }

    /// The function entries (and `write()` returns, as `sys_write`) among trace `lines`, oldest
    /// first; marks and lines of another form are left out.
    package static func entries(_ lines: [Substring]) -> [Entry] {
        var entries: [Entry] = []
        // "   haptics-bench-123     [000] d..1.   123.456789: evdev_write <-vfs_write"
        // "   haptics-bench-123     [000] ...1.   123.456901: sys_write -> 0x18"
        for text in lines {
            guard let line = parse(text), let name = line.text.split(separator: " ").first,
                  name != "tracing_mark_write:" else { continue }
            entries.append(Entry(thread: line.thread, instant: line.instant, function: String(name)))
        }
        return entries.sorted { $0.instant < $1.instant }
    }

    /// "123.456789" (the mono clock's seconds, with up to 9 digits) as nanoseconds.
    static func nanoseconds(_ stamp: Substring) -> Int64? {
        guard let dot = stamp.firstIndex(of: "."), let seconds = Int64(stamp[..<dot]) else { return nil }
        let digits = stamp[stamp.index(after: dot)...]
        guard !digits.isEmpty, digits.count <= 9, var fraction = Int64(digits) else { return nil }
        for _ in digits.count..<9 { fraction *= 10 }
        return seconds * 1_000_000_000 + fraction
    }

    /// The whole of a tracefs file, which says its size is 0: read until the end (one `read()`
    /// gives at most a page of it).
    private static func readWhole(_ path: String) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return "" }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Writes `value` to the tracefs file `file` (replacing what it holds, or added to it); `nil`,
    /// or what failed.
    private static func write(_ value: String, to file: String, appending: Bool = false) -> String? {
        let path = "\(root)/\(file)"
        let descriptor = open(path, O_WRONLY | O_CLOEXEC | (appending ? O_APPEND : O_TRUNC))
        guard descriptor >= 0 else { return "cannot open \(path): \(String(cString: strerror(errno)))" }
        defer { close(descriptor) }
        // The filter's parser may take less than the whole value at a time.
        var bytes = Array(value.utf8)[...]
        while !bytes.isEmpty {
            let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else {
                return "cannot write '\(value)' to \(path): \(count < 0 ? String(cString: strerror(errno)) : "nothing written")"
            }
            bytes = bytes.dropFirst(count)
        }
        return nil
    }
}
