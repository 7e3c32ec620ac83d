/// The canonical AHAP files of the vocabulary (`Patterns/*.ahap`), embedded at build time.
///
/// `Tools/generate-canonical-patterns` writes the embedded text; a test proves it is byte-identical
/// to the files, which stay the source of truth.
enum CanonicalPatterns {
    /// Each canonical file decoded once, by file name.
    static let patterns: [String: Pattern] = {
        var result: [String: Pattern] = [:]
        for (name, text) in sources {
            do {
                result[name] = try AHAPDecoder().decode(text, fileName: name).pattern
            } catch {
                // The files are checked by tests; reaching this means the build embedded a broken file.
                preconditionFailure("canonical pattern does not decode: \(error)")
            }
        }
        return result
    }()
}
