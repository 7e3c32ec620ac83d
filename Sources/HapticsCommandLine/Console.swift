#if canImport(Glibc)
import Glibc
#endif

/// Where a command writes: standard output and standard error, or buffers in tests.
public protocol Console: AnyObject {
    /// Writes `text` to standard output as it is (no newline added).
    func write(_ text: String)
    /// Writes `text` to standard error as it is (no newline added).
    func writeError(_ text: String)
    /// Whether standard output is a terminal (enables color in drawings).
    var isTerminal: Bool { get }
    /// One line of standard input without its newline, `nil` at its end (prompts of `test`).
    func readLine() -> String?
}

extension Console {
    /// No input: a console that cannot be asked anything ends every prompt.
    public func readLine() -> String? { nil }
}

extension Console {
    /// Writes one line to standard output.
    func line(_ text: String = "") { write(text + "\n") }
    /// Writes one line to standard error.
    func errorLine(_ text: String) { writeError(text + "\n") }
}

/// The process's real standard output and error.
public final class StandardConsole: Console {
    /// Creates the console.
    public init() {}
    /// Writes to standard output.
    public func write(_ text: String) { Self.write(text, to: 1) }
    /// Writes to standard error.
    public func writeError(_ text: String) { Self.write(text, to: 2) }

    // Straight to the file descriptor: no stdio buffering to flush, nothing shared to guard.
    private static func write(_ text: String, to descriptor: Int32) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }
    /// Whether standard output is a terminal.
    public var isTerminal: Bool { isatty(1) == 1 }
    /// A line of the process's standard input.
    public func readLine() -> String? { Swift.readLine() }
}

/// A console that keeps what was written, for tests and for embedding the tool.
public final class BufferConsole: Console {
    /// Everything written to standard output.
    public private(set) var output = ""
    /// Everything written to standard error.
    public private(set) var errorOutput = ""
    /// The lines standard input gives, in order.
    public var input: [String]
    /// Creates an empty buffer; `input` is what reading standard input gives.
    public init(input: [String] = []) {
        self.input = input
    }
    /// The next line of `input`, `nil` when none is left.
    public func readLine() -> String? { input.isEmpty ? nil : input.removeFirst() }
    /// Appends to `output`.
    public func write(_ text: String) { output += text }
    /// Appends to `errorOutput`.
    public func writeError(_ text: String) { errorOutput += text }
    /// Never a terminal.
    public var isTerminal: Bool { false }
}
