/// Reading a pattern file's JSON: the size check and the parser, shared by every format.
enum PatternJSON {
    /// The parsed document and the parser's warnings; a file over `limits.maximumFileSize` is refused first.
    static func parse(
        _ bytes: [UInt8], fileName: String, limits: PatternLimits
    ) throws(PatternError) -> (JSONValue, [PatternDiagnostic]) {
        if bytes.count > limits.maximumFileSize {
            throw PatternError(
                file: fileName, line: 0, column: 0, path: "",
                message: "the file is \(bytes.count) bytes, more than the limit of \(limits.maximumFileSize) bytes")
        }
        var parser = JSONParser(bytes: bytes, fileName: fileName, maximumDepth: limits.maximumNestingDepth)
        let root = try parser.parseDocument()
        return (root, parser.warnings)
    }
}
