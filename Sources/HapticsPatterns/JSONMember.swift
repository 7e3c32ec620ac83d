/// One `"key": value` member of a JSON object, with the key's location.
struct JSONMember: Sendable, Hashable {
    /// The key.
    var key: String
    /// Where the key's opening quote is.
    var keyLocation: SourceLocation
    /// The value.
    var value: JSONValue
}
