/// What every located JSON decoder of this module shares: typed access to parsed values that
/// throws a located `PatternError` on the wrong type, and warnings that point at the value.
///
/// AHAP and `.haptic` clips are read by two sessions conforming to this protocol (feedbackd themes
/// use the `JSONValue` accessors underneath directly), so all say "expected a number ≥ 0, found
/// \"abc\"" in the same words and at the same places.
protocol JSONDecodingSession {
    /// The name diagnostics start with.
    var fileName: String { get }
    /// The bounds applied while decoding.
    var limits: PatternLimits { get }
    /// The warnings gathered so far, in source order.
    var warnings: [PatternDiagnostic] { get set }
}

extension JSONDecodingSession {
    /// A metadata object as entries in source order: strings as they are, numbers as written,
    /// booleans and null as words. An array of strings under one of `listKeys` (a clip's `tags`)
    /// gives one entry per string; other nested values are ignored with a warning.
    mutating func decodeMetadata(
        _ value: JSONValue, path: String, listKeys: Set<String>
    ) throws(PatternError) -> [MetadataEntry] {
        guard case .object(let members) = value.content else {
            throw error(at: value, path: path, "expected an object, found \(value.foundDescription)")
        }
        var entries: [MetadataEntry] = []
        for member in members {
            let memberPath = "\(path).\(member.key)"
            switch member.value.content {
            case .string(let string): entries.append(MetadataEntry(key: member.key, value: string))
            case .number(_, let source): entries.append(MetadataEntry(key: member.key, value: source))
            case .bool(let flag): entries.append(MetadataEntry(key: member.key, value: flag ? "true" : "false"))
            case .null: entries.append(MetadataEntry(key: member.key, value: "null"))
            case .array(let elements) where listKeys.contains(member.key):
                for (index, element) in elements.enumerated() {
                    entries.append(MetadataEntry(key: member.key, value: try string(element, path: "\(memberPath)[\(index)]")))
                }
            case .array, .object:
                warn(at: member.value, path: memberPath, "nested value ignored; metadata values are text")
            }
        }
        return entries
    }

    // MARK: Typed access

    /// The members of an object by key, warning about (and dropping) keys not in `known`.
    mutating func members(
        of value: JSONValue, path: String, known: Set<String>
    ) throws(PatternError) -> [String: JSONValue] {
        guard case .object(let members) = value.content else {
            throw error(at: value, path: path, "expected an object, found \(value.foundDescription)")
        }
        var result: [String: JSONValue] = [:]
        for member in members {
            if known.contains(member.key) {
                result[member.key] = member.value
            } else {
                warnings.append(
                    PatternDiagnostic(
                        file: fileName, line: member.keyLocation.line, column: member.keyLocation.column,
                        path: join(path, member.key), message: "unknown key ignored"))
            }
        }
        return result
    }

    func required(
        _ key: String, in members: [String: JSONValue], of object: JSONValue, path: String
    ) throws(PatternError) -> JSONValue {
        try object.required(key, in: members, file: fileName, path: path)
    }

    func number(_ value: JSONValue, path: String) throws(PatternError) -> Double {
        try value.number(file: fileName, path: path)
    }

    func time(_ value: JSONValue, path: String) throws(PatternError) -> Double {
        guard case .number(let number, _) = value.content, number >= 0 else {
            throw error(at: value, path: path, "expected a number ≥ 0, found \(value.foundDescription)")
        }
        return number
    }

    func string(_ value: JSONValue, path: String) throws(PatternError) -> String {
        try value.string(file: fileName, path: path)
    }

    func bool(_ value: JSONValue, path: String) throws(PatternError) -> Bool {
        guard case .bool(let flag) = value.content else {
            throw error(at: value, path: path, "expected true or false, found \(value.foundDescription)")
        }
        return flag
    }

    func array(_ value: JSONValue, path: String) throws(PatternError) -> [JSONValue] {
        try value.array(file: fileName, path: path)
    }

    mutating func clamp(
        _ number: Double, to range: ClosedRange<Double>, name: String, at value: JSONValue, path: String
    ) -> Double {
        let clamped = min(max(number, range.lowerBound), range.upperBound)
        if clamped != number {
            warn(
                at: value, path: path,
                "\(name) \(value.foundDescription) is outside \(NumberText.shortest(range.lowerBound))…\(NumberText.shortest(range.upperBound)); clamped to \(NumberText.shortest(clamped))"
            )
        }
        return clamped
    }

    func checkEnd(_ end: Double, at value: JSONValue, path: String) throws(PatternError) {
        if end > limits.maximumDuration {
            throw error(
                at: value, path: path,
                "ends at \(NumberText.shortest(end)) s, after the limit of \(NumberText.shortest(limits.maximumDuration)) s")
        }
    }

    // MARK: Diagnostics

    func error(at value: JSONValue, path: String, _ message: String) -> PatternError {
        value.error(file: fileName, path: path, message)
    }

    mutating func warn(at value: JSONValue, path: String, _ message: String) {
        warnings.append(
            PatternDiagnostic(
                file: fileName, line: value.location.line, column: value.location.column, path: path, message: message))
    }

    func join(_ path: String, _ key: String) -> String {
        path.isEmpty ? key : path + "." + key
    }
}
