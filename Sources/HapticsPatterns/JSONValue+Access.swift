/// Typed access to parsed JSON with located errors, shared by the decoders of every JSON format
/// (AHAP, feedbackd themes), so each says "expected a string, found 7" the same way.
extension JSONValue {
    /// An error located at this value in `file`, about the value at `path`.
    func error(file: String, path: String, _ message: String) -> PatternError {
        PatternError(file: file, line: location.line, column: location.column, path: path, message: message)
    }

    /// The number, or a located error.
    func number(file: String, path: String) throws(PatternError) -> Double {
        guard case .number(let number, _) = content else {
            throw error(file: file, path: path, "expected a number, found \(foundDescription)")
        }
        return number
    }

    /// The string, or a located error.
    func string(file: String, path: String) throws(PatternError) -> String {
        guard case .string(let text) = content else {
            throw error(file: file, path: path, "expected a string, found \(foundDescription)")
        }
        return text
    }

    /// The elements, or a located error.
    func array(file: String, path: String) throws(PatternError) -> [JSONValue] {
        guard case .array(let elements) = content else {
            throw error(file: file, path: path, "expected an array, found \(foundDescription)")
        }
        return elements
    }

    /// The member `key` of this object (its members by key given as `members`), or an error
    /// located at the object.
    func required(_ key: String, in members: [String: JSONValue], file: String, path: String) throws(PatternError) -> JSONValue {
        guard let value = members[key] else {
            throw error(file: file, path: path, "missing required key \(JSONString.quoted(key))")
        }
        return value
    }
}
