import HapticsSystem

/// A device profile file's mistake: which file, line and column, and what was expected.
public struct DeviceProfileFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file as given (or `<text>` for text parsed directly).
    public let file: String
    /// 1-based line; 0 when the file could not be read at all.
    public let line: Int
    /// 1-based column of the offending key or value; 0 with `line` 0.
    public let column: Int
    /// What is wrong and what was expected.
    public let message: String
    /// Why the file could not be read, when that is the problem (`message` says it too).
    public let readError: FileReadError?

    /// Creates an error.
    public init(file: String, line: Int, column: Int, message: String, readError: FileReadError? = nil) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
        self.readError = readError
    }

    /// `file:line:column: message`, as compilers write it.
    public var description: String {
        line == 0 ? "\(PrintableText.escaped(file)): \(message)"
            : "\(PrintableText.escaped(file)):\(line):\(column): \(message)"
    }
}

extension DeviceProfile {
    /// The largest profile file read: 64 KiB (a profile is a dozen lines).
    public static let maximumFileSize = 65_536

    /// Reads a device profile file (the format is in `docs/reference/profiles.md`, "Profile files"): a
    /// built-in profile to start from and the values that differ, one `key = value` a line.
    ///
    /// Throws a ``DeviceProfileFileError`` naming the line and column of the first mistake: a line
    /// that is not `key = value`, an unknown or repeated key, a value that is not what the key
    /// takes (a number, `true`/`false`, a built-in profile name) or is outside its range
    /// (``validate()``'s ranges), or a file that cannot be read.
    public init(contentsOf path: String) throws(DeviceProfileFileError) {
        let bytes: [UInt8]
        do {
            bytes = try FileDescriptor.readContents(ofFile: path, maximumSize: Self.maximumFileSize)
        } catch {
            throw DeviceProfileFileError(file: path, line: 0, column: 0, message: error.description, readError: error)
        }
        try self.init(parsing: String(decoding: bytes, as: UTF8.self), file: path)
    }

    /// Parses the text of a device profile file; `file` names it in errors.
    public init(parsing text: String, file: String = "<text>") throws(DeviceProfileFileError) {
        var entries: [(key: String, value: String, line: Int, keyColumn: Int, valueColumn: Int)] = []
        var lineNumber = 0
        // By bytes: a String splits "\r\n" as one character, and column numbers count bytes.
        for rawLine in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            var line = Array(rawLine)
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            if let hash = line.firstIndex(of: UInt8(ascii: "#")) { line.removeSubrange(hash...) }
            guard let first = line.firstIndex(where: { !Self.isSpace($0) }) else { continue }
            guard let equals = line.firstIndex(of: UInt8(ascii: "=")) else {
                throw DeviceProfileFileError(file: file, line: lineNumber, column: first + 1,
                                             message: "expected 'key = value'")
            }
            let key = Self.trimmed(line[..<equals])
            let valueStart = line[(equals + 1)...].firstIndex(where: { !Self.isSpace($0) }) ?? line.count
            let value = Self.trimmed(line[(equals + 1)...])
            guard !key.isEmpty else {
                throw DeviceProfileFileError(file: file, line: lineNumber, column: first + 1, message: "expected a key before '='")
            }
            guard !value.isEmpty else {
                throw DeviceProfileFileError(file: file, line: lineNumber, column: equals + 2,
                                             message: "expected a value after '\(key) ='")
            }
            if let earlier = entries.first(where: { $0.key == key }) {
                throw DeviceProfileFileError(file: file, line: lineNumber, column: first + 1,
                                             message: "'\(key)' is already set on line \(earlier.line)")
            }
            entries.append((key, value, lineNumber, first + 1, valueStart + 1))
        }
        var profile = DeviceProfile.genericRumble
        if let base = entries.first(where: { $0.key == "base" }) {
            guard let builtin = DeviceProfile.named(base.value) else {
                throw DeviceProfileFileError(
                    file: file, line: base.line, column: base.valueColumn,
                    message: "unknown profile '\(base.value)' (built in: \(DeviceProfile.builtins.map(\.name).joined(separator: ", ")))")
            }
            profile = builtin
            profile.name = builtin.name
        }
        for entry in entries where entry.key != "base" {
            func fail(_ message: String) -> DeviceProfileFileError {
                DeviceProfileFileError(file: file, line: entry.line, column: entry.valueColumn, message: message)
            }
            func number(in range: ClosedRange<Double>, unit: String) throws(DeviceProfileFileError) -> Double {
                guard let value = Double(entry.value), value.isFinite else {
                    throw fail("'\(entry.key)' expects a number\(unit.isEmpty ? "" : " of \(unit)"), not '\(entry.value)'")
                }
                guard range.contains(value) else {
                    let bounds = "\(Self.text(range.lowerBound))…\(Self.text(range.upperBound))\(unit.isEmpty ? "" : " \(unit)")"
                    throw fail("'\(entry.key)' is \(entry.value), outside \(bounds)")
                }
                return value
            }
            func milliseconds(in range: ClosedRange<Duration>) throws(DeviceProfileFileError) -> Duration {
                let bounds = (Double(range.lowerBound.nanoseconds) / 1e6)...(Double(range.upperBound.nanoseconds) / 1e6)
                return .nanoseconds(Int64((try number(in: bounds, unit: "ms") * 1e6).rounded()))
            }
            switch entry.key {
            case "name": profile.name = entry.value
            case "display-name": profile.displayName = entry.value
            case "rise-time-ms": profile.riseTime = try milliseconds(in: Self.spanRange)
            case "minimum-pulse-ms": profile.minimumPulse = try milliseconds(in: Self.spanRange)
            case "control-interval-ms": profile.controlInterval = try milliseconds(in: Self.controlIntervalRange)
            case "overdrive-ms": profile.overdrive = try milliseconds(in: Self.spanRange)
            case "magnitude-exponent": profile.magnitudeExponent = try number(in: Self.magnitudeExponentRange, unit: "")
            case "magnitude-floor": profile.magnitudeFloor = try number(in: Self.magnitudeFloorRange, unit: "")
            case "swap-motors":
                switch entry.value {
                case "true": profile.swapsMotors = true
                case "false": profile.swapsMotors = false
                default: throw fail("'swap-motors' expects true or false, not '\(entry.value)'")
                }
            default:
                throw DeviceProfileFileError(
                    file: file, line: entry.line, column: entry.keyColumn,
                    message: "unknown key '\(entry.key)' (known: \(Self.fileKeys.joined(separator: ", ")))")
            }
        }
        self = profile
    }

    /// The keys a profile file may set.
    public static let fileKeys = [
        "base", "name", "display-name", "rise-time-ms", "minimum-pulse-ms", "control-interval-ms", "overdrive-ms",
        "magnitude-exponent", "magnitude-floor", "swap-motors",
    ]

    private static func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> String {
        guard let start = bytes.firstIndex(where: { !isSpace($0) }),
              let end = bytes.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(decoding: bytes[start...end], as: UTF8.self)
    }

    /// A bound as people write it: `1000`, not `1000.0`.
    private static func text(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
