/// The system calls one thread made between markers in an `strace -f -o FILE` log.
///
/// The thread is the one that wrote the first `begin` marker (``markTraceWindow(_:)``); calls of
/// other threads (a virtual device's reader, the runtime) are not counted, and neither are the
/// markers. A thread may mark many windows (`begin` … `end` again and again, e.g. around each
/// trigger but not the stop after it): their calls add up. A call that another thread's line split
/// in two (`<unfinished ...>` … `<... resumed>`) counts once.
struct TraceWindow: Equatable {
    /// How many system calls the thread made in the windows.
    var total: Int
    /// The same, per system call name.
    var byName: [String: Int]
    /// How many windows there were.
    var windows: Int

    /// Adds up the windows between the lines containing `begin` and `end` in `log`, or `nil` when
    /// there is none or the last one does not end.
    init?(log: String, begin: String, end: String) {
        var thread: Substring?
        var inside = false
        var total = 0
        var windows = 0
        var byName: [String: Int] = [:]
        for line in log.split(separator: "\n") {
            // With -f every line starts with the thread id.
            let identifier = line.prefix { $0.isNumber }
            let call = line.dropFirst(identifier.count).drop { $0 == " " }
            if thread == nil, !identifier.isEmpty, call.contains(begin) { thread = identifier }
            guard let window = thread, identifier == window else { continue }
            if !inside {
                inside = call.contains(begin)
                continue
            }
            if call.contains(end) {
                inside = false
                windows += 1
                continue
            }
            // Resumed halves, signals (---) and exits (+++) are not new calls.
            guard let name = Self.callName(call) else { continue }
            total += 1
            byName[name, default: 0] += 1
        }
        guard windows > 0, !inside else { return nil }
        self.total = total
        self.byName = byName
        self.windows = windows
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
