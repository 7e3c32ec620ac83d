import HapticsPatterns

/// Builds one JSON object on one line (the `--json` output format: one object per line).
package struct JSONLine {
    private var fields: [String] = []

    /// The version of the records' shape, in every record's `"schema"`: raised when a field
    /// changes meaning or goes away (new fields do not raise it).
    static let schema = 1

    /// An object inside a record (no schema, no type).
    package init() {}

    /// A record: a line of `--json` output, starting with `"schema"` and `"type"` (what the record
    /// is: `device`, `command`, `play`, …) so a reader can tell lines apart without guessing.
    package init(record type: String) {
        add("schema", Self.schema)
        add("type", type)
    }

    /// Adds a string field.
    package mutating func add(_ key: String, _ value: String) {
        fields.append("\(Self.quote(key)):\(Self.quote(value))")
    }
    /// Adds an integer field.
    package mutating func add(_ key: String, _ value: Int) {
        fields.append("\(Self.quote(key)):\(value)")
    }
    /// Adds a number field, printed with up to `digits` decimals and no trailing zeros.
    package mutating func add(_ key: String, _ value: Double, digits: Int = 3) {
        fields.append("\(Self.quote(key)):\(Self.number(value, digits: digits))")
    }
    /// Adds a boolean field.
    package mutating func add(_ key: String, _ value: Bool) {
        fields.append("\(Self.quote(key)):\(value)")
    }
    /// Adds a field whose value is already JSON.
    package mutating func add(_ key: String, raw: String) {
        fields.append("\(Self.quote(key)):\(raw)")
    }

    /// Adds every field of `other`, after the fields already here.
    package mutating func append(_ other: JSONLine) {
        fields += other.fields
    }

    /// The object as text.
    package var text: String { "{" + fields.joined(separator: ",") + "}" }

    /// A JSON string literal.
    package static func quote(_ text: String) -> String { JSONString.quoted(text) }

    /// A number with at most `digits` decimals, without trailing zeros (`0.5`, `12`, `-3.25`);
    /// `null` when it is not finite, which JSON cannot hold. The tool's human text uses it too,
    /// so a figure reads the same in both.
    package static func number(_ value: Double, digits: Int) -> String {
        guard value.isFinite else { return "null" }
        return NumberText.decimal(value, digits: digits)
    }
}
