import Foundation
import Glibc
import HapticsSystem

/// Entries of chosen kernel functions, and the returns of `write()`, with the kernel id of the
/// thread and the CLOCK_MONOTONIC instant of each, from the kernel's function tracer (tracefs,
/// `trace_clock` `mono`): where a peer's call reached the kernel (`evdev_write`, the handler of a
/// `write()` to an evdev node), when the driver's worker began sending the report
/// (`dualsense_output_worker`), and when the caller's `write()` returned (`sys_write`, the
/// `syscalls:sys_exit_write` event), told apart from what happened around them.
///
/// Only in the kernel testbench guest, which mounts tracefs for benchmarks; `start` returns the
/// reason where tracing is not available, and the benchmark goes on without the split.
struct KernelFunctionTrace {
    /// One traced entry.
    struct Entry {
        let thread: Int32
        let instant: Int64
        let function: String
    }

    static let root = "/sys/kernel/tracing"

    /// Clears the trace and traces entries of `functions` from now on; `nil`, or why it cannot.
    static func start(_ functions: [String]) -> String? {
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
        // Where a write() returns: whether the driver's worker ran inside it.
        if let failure = write("1", to: "events/syscalls/sys_exit_write/enable") { return failure }
        for (file, value) in [("current_tracer", "function"), ("trace", ""), ("tracing_on", "1")] {
            if let failure = write(value, to: file) { return failure }
        }
        return nil
    }

    /// Stops tracing and returns every traced entry, oldest first.
    static func stop() -> [Entry] {
        _ = write("0", to: "tracing_on")
        let text = readWhole("\(root)/trace") ?? ""
        _ = write("nop", to: "current_tracer")
        _ = write("0", to: "events/syscalls/sys_exit_write/enable")
        var entries: [Entry] = []
        // "   haptics-bench-123     [000] d..1.   123.456789: evdev_write <-vfs_write"
        // "   haptics-bench-123     [000] ...1.   123.456901: sys_write -> 0x18"
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let bracket = line.firstIndex(of: "]"),
                  let task = line[..<bracket].split(separator: " ").dropLast().last,
                  let dash = task.lastIndex(of: "-"),
                  let thread = Int32(task[task.index(after: dash)...]) else { continue }
            let rest = line[line.index(after: bracket)...]
            guard let colon = rest.range(of: ": "),
                  let stamp = rest[..<colon.lowerBound].split(separator: " ").last,
                  let instant = nanoseconds(stamp),
                  let name = rest[colon.upperBound...].split(separator: " ").first else { continue }
            entries.append(Entry(thread: thread, instant: instant, function: String(name)))
        }
        return entries.sorted { $0.instant < $1.instant }
    }

    /// For each call (`thread`, the instant it began), the nanoseconds until that thread's first
    /// entry of `function` at or after it, or `nil` when none came before the next call began.
    static func delays(after calls: [(thread: Int32, start: Int64)], until function: String, in entries: [Entry]) -> [Int64?] {
        var byThread: [Int32: [Int64]] = [:]
        for entry in entries where entry.function == function { byThread[entry.thread, default: []].append(entry.instant) }
        let starts = calls.map(\.start).sorted()
        return calls.map { call in
            guard let first = byThread[call.thread]?.first(where: { $0 >= call.start }) else { return nil }
            // Matched only when it came before the next call (of any peer) began.
            if let next = starts.first(where: { $0 > call.start }), first >= next { return nil }
            return first - call.start
        }
    }

    /// For each instant, the nanoseconds until the first entry of `function` (any thread) at or
    /// after it, or `nil` when there is none.
    static func delays(after instants: [Int64], until function: String, in entries: [Entry]) -> [Int64?] {
        let times = entries.filter { $0.function == function }.map(\.instant)
        return instants.map { instant in times.first { $0 >= instant }.map { $0 - instant } }
    }

    /// "123.456789" (the mono clock's seconds, with 6 or 9 digits) as nanoseconds.
    private static func nanoseconds(_ stamp: Substring) -> Int64? {
        guard let dot = stamp.firstIndex(of: "."), let seconds = Int64(stamp[..<dot]),
              var fraction = Int64(stamp[stamp.index(after: dot)...]) else { return nil }
        for _ in stamp.distance(from: stamp.index(after: dot), to: stamp.endIndex)..<9 { fraction *= 10 }
        return seconds * 1_000_000_000 + fraction
    }

    /// The whole of a tracefs file, which says its size is 0 (so `FileDescriptor.readContents`,
    /// which reads a regular file by its size, does not apply): read until the end.
    private static func readWhole(_ path: String) -> String? {
        guard let descriptor = try? FileDescriptor.open(path, .readOnly) else { return nil }
        defer { try? descriptor.close() }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while let count = try? chunk.withUnsafeMutableBytes({ try descriptor.read(into: $0) }), count > 0 {
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Writes `value` to the tracefs file `file` (replacing what it holds, or added to it); `nil`,
    /// or what failed.
    private static func write(_ value: String, to file: String, appending: Bool = false) -> String? {
        let path = "\(root)/\(file)"
        do {
            let options: FileDescriptor.OpenOptions = [.closeOnExec, appending ? FileDescriptor.OpenOptions(rawValue: O_APPEND) : .truncate]
            let descriptor = try FileDescriptor.open(path, .writeOnly, options: options)
            defer { try? descriptor.close() }
            // The filter's parser may take less than the whole value at a time.
            var bytes = Array(value.utf8)[...]
            while !bytes.isEmpty {
                let count = try bytes.withUnsafeBytes { try descriptor.write($0) }
                guard count > 0 else { return "writing '\(value)' to \(path) wrote nothing" }
                bytes = bytes.dropFirst(count)
            }
            return nil
        } catch {
            return "cannot write '\(value)' to \(path): \(error)"
        }
    }
}
