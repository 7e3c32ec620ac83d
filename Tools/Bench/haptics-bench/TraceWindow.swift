/// The system calls one thread made between two markers in an `strace -f -o FILE` log.
///
/// The thread is the one that wrote the `begin` marker (``markTraceWindow(_:)``); calls of other
/// threads (a virtual device's reader, the runtime) are not counted, and neither are the markers.
/// A call that another thread's line split in two (`<unfinished ...>` … `<... resumed>`) counts once.
struct TraceWindow: Equatable {
    /// How many system calls the thread made in the window.
    var total: Int
    /// The same, per system call name.
    var byName: [String: Int]

    /// Finds the window between the lines containing `begin` and `end` in `log`, or `nil` when a
    /// marker is missing.
    init?(log: String, begin: String, end: String) {
        var thread: Substring?
        var total = 0
        var byName: [String: Int] = [:]
        for line in log.split(separator: "\n") {
            // With -f every line starts with the thread id.
            let identifier = line.prefix { $0.isNumber }
            let call = line.dropFirst(identifier.count).drop { $0 == " " }
            guard let window = thread else {
                if !identifier.isEmpty, call.contains(begin) { thread = identifier }
                continue
            }
            guard identifier == window else { continue }
            if call.contains(end) {
                self.total = total
                self.byName = byName
                return
            }
            // Resumed halves, signals (---) and exits (+++) are not new calls.
            guard let name = Self.callName(call) else { continue }
            total += 1
            byName[name, default: 0] += 1
        }
        return nil
    }

    /// `write` for `write(3, "…", 24) = 24`; `nil` for anything that does not start a call.
    private static func callName(_ call: Substring) -> String? {
        let name = call.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        guard !name.isEmpty, call.dropFirst(name.count).first == "(" else { return nil }
        return String(name)
    }

    /// `write ×1000, ioctl ×2`, most frequent first.
    var summary: String {
        byName.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { "\($0.key) ×\($0.value)" }
            .joined(separator: ", ")
    }
}
