/// Builds one JSON object on one line (the `--json` output format: one object per line).
struct JSONLine {
    private var fields: [String] = []

    /// Adds a string field.
    mutating func add(_ key: String, _ value: String) {
        fields.append("\(Self.quote(key)):\(Self.quote(value))")
    }
    /// Adds an integer field.
    mutating func add(_ key: String, _ value: Int) {
        fields.append("\(Self.quote(key)):\(value)")
    }
    /// Adds a number field, printed with up to `digits` decimals and no trailing zeros.
    mutating func add(_ key: String, _ value: Double, digits: Int = 3) {
        fields.append("\(Self.quote(key)):\(Self.number(value, digits: digits))")
    }
    /// Adds a boolean field.
    mutating func add(_ key: String, _ value: Bool) {
        fields.append("\(Self.quote(key)):\(value)")
    }
    /// Adds a field whose value is already JSON.
    mutating func add(_ key: String, raw: String) {
        fields.append("\(Self.quote(key)):\(raw)")
    }

    /// Adds every field of `other`, after the fields already here.
    mutating func append(_ other: JSONLine) {
        fields += other.fields
    }

    /// The object as text.
    var text: String { "{" + fields.joined(separator: ",") + "}" }

    /// A JSON string literal.
    static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let s where s.value < 0x20:
                let hex = String(s.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// A number with at most `digits` decimals, without trailing zeros (`0.5`, `12`, `-3.25`).
    static func number(_ value: Double, digits: Int) -> String {
        guard value.isFinite else { return "null" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (value * scale).rounded()
        if scaled == 0 { return "0" }
        let negative = scaled < 0
        let magnitude = Int64(abs(scaled))
        let whole = magnitude / Int64(scale)
        var fraction = String(magnitude % Int64(scale))
        fraction = String(repeating: "0", count: max(0, digits - fraction.count)) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return (negative ? "-" : "") + String(whole) + (fraction.isEmpty ? "" : "." + fraction)
    }
}
