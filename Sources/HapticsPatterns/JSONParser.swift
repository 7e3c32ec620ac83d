/// A strict JSON reader that keeps the line and column of every value.
///
/// Leniencies (each reported as a warning, never silently): a UTF-8 byte order mark is skipped,
/// a trailing comma before `}` or `]` is accepted, and of duplicate keys the last one wins.
/// Comments, single quotes, `NaN`/`Infinity` and leading zeros are syntax errors, unless the
/// format being read asks for one of the `JSONLeniency` options (feedbackd themes do; AHAP never).
struct JSONParser {
    private let bytes: [UInt8]
    private let fileName: String
    private let maximumDepth: Int
    private let leniencies: JSONLeniency
    private var index = 0
    private var line = 1
    private var column = 1
    /// Warnings about the leniencies used, in source order.
    private(set) var warnings: [PatternDiagnostic] = []

    /// Creates a parser over UTF-8 `bytes` that names `fileName` in its diagnostics.
    init(bytes: [UInt8], fileName: String, maximumDepth: Int, leniencies: JSONLeniency = []) {
        self.bytes = bytes
        self.fileName = fileName
        self.maximumDepth = maximumDepth
        self.leniencies = leniencies
    }

    /// Parses the whole input as one JSON value followed only by whitespace.
    mutating func parseDocument() throws(PatternError) -> JSONValue {
        // A byte order mark is invisible in editors, so it does not count as a column.
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        try skipWhitespace()
        let value = try parseValue(depth: 0)
        try skipWhitespace()
        if index < bytes.count {
            throw error("expected the end of the file after the top-level value, found \(foundToken())")
        }
        return value
    }

    // MARK: Values

    private mutating func parseValue(depth: Int) throws(PatternError) -> JSONValue {
        let start = location
        guard let byte = peek() else { throw error("expected a value, found \(foundToken())") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return JSONValue(content: .string(try parseString()), location: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default:
            switch word() {
            case "true": advance(by: 4); return JSONValue(content: .bool(true), location: start)
            case "false": advance(by: 5); return JSONValue(content: .bool(false), location: start)
            case "null": advance(by: 4); return JSONValue(content: .null, location: start)
            default: throw error("expected a value, found \(foundToken())")
            }
        }
    }

    private mutating func parseObject(depth: Int) throws(PatternError) -> JSONValue {
        let start = location
        try checkDepth(depth)
        advance()
        var members: [JSONMember] = []
        // Index by key so a hostile object with many keys stays linear to read.
        var indexByKey: [String: Int] = [:]
        try skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            advance()
            return JSONValue(content: .object(members), location: start)
        }
        while true {
            guard peek() == UInt8(ascii: "\"") else {
                throw error("expected a string key, found \(foundToken())")
            }
            let keyLocation = location
            let key = try parseString()
            try skipWhitespace()
            guard peek() == UInt8(ascii: ":") else {
                throw error("expected ':' after the key \(JSONString.quoted(key)), found \(foundToken())")
            }
            advance()
            try skipWhitespace()
            let value = try parseValue(depth: depth)
            let member = JSONMember(key: key, keyLocation: keyLocation, value: value)
            if let earlier = indexByKey[key] {
                // The later value replaces the earlier one where the key first appeared.
                warn(at: keyLocation, "duplicate key \(JSONString.quoted(key)); the last value is used")
                members[earlier] = member
            } else {
                indexByKey[key] = members.count
                members.append(member)
            }
            try skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","):
                let comma = location
                advance()
                try skipWhitespace()
                if peek() == UInt8(ascii: "}") {
                    warn(at: comma, "trailing comma before '}' accepted")
                    advance()
                    return JSONValue(content: .object(members), location: start)
                }
            case UInt8(ascii: "}"):
                advance()
                return JSONValue(content: .object(members), location: start)
            default:
                throw error("expected ',' or '}' after an object member, found \(foundToken())")
            }
        }
    }

    private mutating func parseArray(depth: Int) throws(PatternError) -> JSONValue {
        let start = location
        try checkDepth(depth)
        advance()
        var elements: [JSONValue] = []
        try skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            advance()
            return JSONValue(content: .array(elements), location: start)
        }
        while true {
            elements.append(try parseValue(depth: depth))
            try skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","):
                let comma = location
                advance()
                try skipWhitespace()
                if peek() == UInt8(ascii: "]") {
                    warn(at: comma, "trailing comma before ']' accepted")
                    advance()
                    return JSONValue(content: .array(elements), location: start)
                }
            case UInt8(ascii: "]"):
                advance()
                return JSONValue(content: .array(elements), location: start)
            default:
                throw error("expected ',' or ']' after an array element, found \(foundToken())")
            }
        }
    }

    private func checkDepth(_ depth: Int) throws(PatternError) {
        if depth > maximumDepth {
            throw error("arrays and objects nest deeper than the limit of \(maximumDepth) levels")
        }
    }

    // MARK: Strings

    private mutating func parseString() throws(PatternError) -> String {
        let start = location
        advance()  // opening quote
        var utf8: [UInt8] = []
        while true {
            guard let byte = peek() else {
                throw error("expected '\"' to close the string, found the end of the file")
            }
            switch byte {
            case UInt8(ascii: "\""):
                advance()
                guard let text = String(validating: utf8, as: UTF8.self) else {
                    throw PatternError(
                        file: fileName, line: start.line, column: start.column, path: "",
                        message: "the string is not valid UTF-8")
                }
                return text
            case UInt8(ascii: "\\"):
                try parseEscape(into: &utf8)
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                throw error("expected '\"' to close the string, found a line break")
            case 0..<0x20:
                throw error("control character U+\(hex4(UInt32(byte))) must be escaped in a string")
            default:
                utf8.append(byte)
                advance()
            }
        }
    }

    private mutating func parseEscape(into utf8: inout [UInt8]) throws(PatternError) {
        let escapeLocation = location
        advance()  // backslash
        guard let byte = peek() else {
            throw error("expected an escape character after '\\', found the end of the file")
        }
        let simple: UInt8?
        switch byte {
        case UInt8(ascii: "\""): simple = UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): simple = UInt8(ascii: "\\")
        case UInt8(ascii: "/"): simple = UInt8(ascii: "/")
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"): simple = nil
        default:
            throw error("expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u after '\\', found \(foundToken())")
        }
        if let simple {
            utf8.append(simple)
            advance()
            return
        }
        advance()  // u
        var scalarValue = try parseHex4()
        if (0xD800...0xDBFF).contains(scalarValue) {
            // A high surrogate must be followed by an escaped low surrogate.
            guard peek() == UInt8(ascii: "\\"), peek(offset: 1) == UInt8(ascii: "u") else {
                throw PatternError(
                    file: fileName, line: escapeLocation.line, column: escapeLocation.column, path: "",
                    message: "unpaired surrogate \\u\(hex4(scalarValue)) in a string")
            }
            advance(by: 2)
            let low = try parseHex4()
            guard (0xDC00...0xDFFF).contains(low) else {
                throw PatternError(
                    file: fileName, line: escapeLocation.line, column: escapeLocation.column, path: "",
                    message: "unpaired surrogate \\u\(hex4(scalarValue)) in a string")
            }
            scalarValue = 0x10000 + ((scalarValue - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(scalarValue) {
            throw PatternError(
                file: fileName, line: escapeLocation.line, column: escapeLocation.column, path: "",
                message: "unpaired surrogate \\u\(hex4(scalarValue)) in a string")
        }
        // Surrogates were excluded above, so the value is a valid scalar.
        if let scalar = Unicode.Scalar(scalarValue) {
            utf8.append(contentsOf: Array(String(Character(scalar)).utf8))
        }
    }

    private mutating func parseHex4() throws(PatternError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = peek(), let digit = hexDigit(byte) else {
                throw error("expected 4 hexadecimal digits after '\\u', found \(foundToken())")
            }
            value = value * 16 + digit
            advance()
        }
        return value
    }

    // MARK: Numbers

    private mutating func parseNumber() throws(PatternError) -> JSONValue {
        let start = location
        let startIndex = index
        if peek() == UInt8(ascii: "-") { advance() }
        guard let first = peek(), isDigit(first) else {
            throw error("expected a digit after '-', found \(foundToken())")
        }
        advance()
        if first == UInt8(ascii: "0"), leniencies.contains(.hexadecimalIntegers),
           peek() == UInt8(ascii: "x") || peek() == UInt8(ascii: "X") {
            return try parseHexadecimalInteger(start: start, startIndex: startIndex)
        }
        if first == UInt8(ascii: "0"), let next = peek(), isDigit(next) {
            throw error("expected '.', 'e' or the end of the number after a leading 0, found \(foundToken())")
        }
        skipDigits()
        if peek() == UInt8(ascii: ".") {
            advance()
            guard let digit = peek(), isDigit(digit) else {
                throw error("expected a digit after '.', found \(foundToken())")
            }
            skipDigits()
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            advance()
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { advance() }
            guard let digit = peek(), isDigit(digit) else {
                throw error("expected a digit in the exponent, found \(foundToken())")
            }
            skipDigits()
        }
        let text = String(decoding: bytes[startIndex..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw PatternError(
                file: fileName, line: start.line, column: start.column, path: "",
                message: "the number \(text) is out of range")
        }
        return JSONValue(content: .number(value, text: text), location: start)
    }

    /// `0x7FFF` (after `0`, at the `x`): an integer written in hexadecimal, as json-glib reads it.
    private mutating func parseHexadecimalInteger(start: SourceLocation, startIndex: Int) throws(PatternError) -> JSONValue {
        advance()  // x
        var magnitude: UInt64 = 0
        var digits = 0
        while let byte = peek(), let digit = hexDigit(byte) {
            // 13 digits are 52 bits: every such integer is exactly a Double.
            if digits == 13 {
                throw PatternError(
                    file: fileName, line: start.line, column: start.column, path: "",
                    message: "the hexadecimal number \(String(decoding: bytes[startIndex...index], as: UTF8.self))… has more than 13 digits")
            }
            magnitude = magnitude * 16 + UInt64(digit)
            digits += 1
            advance()
        }
        guard digits > 0 else { throw error("expected a hexadecimal digit after '0x', found \(foundToken())") }
        let text = String(decoding: bytes[startIndex..<index], as: UTF8.self)
        let value = bytes[startIndex] == UInt8(ascii: "-") ? -Double(magnitude) : Double(magnitude)
        warn(at: start, "hexadecimal integer \(text) accepted as \(NumberText.shortest(value))")
        return JSONValue(content: .number(value, text: text), location: start)
    }

    private mutating func skipDigits() {
        while let byte = peek(), isDigit(byte) { advance() }
    }

    // MARK: Whitespace

    private mutating func skipWhitespace() throws(PatternError) {
        while let byte = peek() {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                advance()
            case UInt8(ascii: "/") where leniencies.contains(.comments)
                && (peek(offset: 1) == UInt8(ascii: "/") || peek(offset: 1) == UInt8(ascii: "*")):
                try skipComment()
            case UInt8(ascii: "/") where peek(offset: 1) == UInt8(ascii: "/") || peek(offset: 1) == UInt8(ascii: "*"):
                // Core Haptics reads AHAP with a strict JSON reader, so a commented file would not play there.
                throw error("comments are not allowed in AHAP files")
            default:
                return
            }
        }
    }

    /// Skips one `// …` (to the end of the line) or `/* … */` comment, with a warning.
    private mutating func skipComment() throws(PatternError) {
        let start = location
        let block = peek(offset: 1) == UInt8(ascii: "*")
        advance(by: 2)
        while let byte = peek() {
            if block, byte == UInt8(ascii: "*"), peek(offset: 1) == UInt8(ascii: "/") {
                advance(by: 2)
                warn(at: start, "comment accepted")
                return
            }
            if !block, byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") { break }
            advance()
        }
        if block {
            throw PatternError(file: fileName, line: start.line, column: start.column, path: "",
                               message: "expected '*/' to close the comment, found the end of the file")
        }
        warn(at: start, "comment accepted")
    }

    // MARK: Cursor

    private var location: SourceLocation { SourceLocation(line: line, column: column) }

    private func peek(offset: Int = 0) -> UInt8? {
        index + offset < bytes.count ? bytes[index + offset] : nil
    }

    private mutating func advance(by count: Int = 1) {
        for _ in 0..<count {
            guard index < bytes.count else { return }
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte == UInt8(ascii: "\r") {
                // CRLF is one line break; a lone CR is one too.
                if peek() != UInt8(ascii: "\n") {
                    line += 1
                    column = 1
                }
            } else if byte & 0xC0 != 0x80 {
                // Continuation bytes belong to the scalar whose lead byte already moved the column.
                column += 1
            }
        }
    }

    /// The run of identifier characters at the cursor (to quote `NaN`, `True`, `undefined` whole).
    private func word() -> String {
        var end = index
        while end < bytes.count, isWordByte(bytes[end]) { end += 1 }
        return String(decoding: bytes[index..<end], as: UTF8.self)
    }

    /// How a diagnostic names whatever is at the cursor.
    private func foundToken() -> String {
        guard let byte = peek() else { return "the end of the file" }
        if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") { return "a line break" }
        if isWordByte(byte) { return "'\(word())'" }
        var end = index + 1
        while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
        return "'\(String(decoding: bytes[index..<end], as: UTF8.self))'"
    }

    private func error(_ message: String) -> PatternError {
        PatternError(file: fileName, line: line, column: column, path: "", message: message)
    }

    private mutating func warn(at where: SourceLocation, _ message: String) {
        warnings.append(
            PatternDiagnostic(file: fileName, line: `where`.line, column: `where`.column, path: "", message: message))
    }
}

private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

private func isWordByte(_ byte: UInt8) -> Bool {
    (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
        || isDigit(byte) || byte == UInt8(ascii: "_")
}

private func hexDigit(_ byte: UInt8) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
    default: return nil
    }
}

private func hex4(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}

/// What a JSON reader accepts beyond strict JSON, for a format whose own reader does (each use is
/// still a warning). AHAP asks for none of them.
struct JSONLeniency: OptionSet, Sendable {
    let rawValue: Int

    /// Integers written in hexadecimal, `0x7FFF` or `-0x10` (json-glib's scanner reads them).
    static let hexadecimalIntegers = JSONLeniency(rawValue: 1 << 0)
    /// `// …` and `/* … */` comments wherever whitespace may be (json-glib skips them).
    static let comments = JSONLeniency(rawValue: 1 << 1)
}
