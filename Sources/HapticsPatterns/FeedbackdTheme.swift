import HapticsSystem

/// A feedbackd theme (Linux mobile feedback themes): per event and profile section, the feedback
/// feedbackd would give, with the parent themes it inherits from.
///
/// A theme names a `parent-name`; an event missing from one of its sections is looked up in the
/// same section of the parent, then the parent's parent (a device theme usually inherits from
/// `default`). The level rule is feedbackd's: a level plays its own section and the quieter ones
/// (`FeedbackdLevel.playedSections`).
///
/// Decoding reads the file the way feedbackd's JSON reader (json-glib) does in the wild: hexadecimal
/// integers (`0x7FFF`) and comments are accepted, and a magnitude written as an integer above 1 is
/// on feedbackd's old 0…65535 scale and divided by 65535; each is a located warning. Strict JSON
/// leniencies (a byte order mark, a trailing comma, a duplicate key) are accepted with a warning
/// as in AHAP files. Unknown keys, unknown profile sections and unknown feedback types are ignored
/// with a warning. Wrong types, a missing required key, a negative or fractional time, arrays of
/// different lengths in a `VibraPattern` and a parent chain that loops or cannot be found are
/// located `PatternError`s. The full tables are in `docs/reference/formats.md`.
public struct FeedbackdTheme: Sendable, Hashable {
    /// One file of the chain: a theme as its file declares it, without its parents.
    public struct File: Sendable, Hashable {
        /// The theme's `name`.
        public var name: String
        /// The theme's `parent-name`, when it has one.
        public var parentName: String?
        /// The file name as given to the decoder.
        public var file: String
        /// Its feedbacks, in source order (of duplicates in a section, only the last one).
        public var feedbacks: [FeedbackdFeedback]

        /// Creates a theme file.
        public init(name: String, parentName: String? = nil, file: String, feedbacks: [FeedbackdFeedback]) {
            self.name = name
            self.parentName = parentName
            self.file = file
            self.feedbacks = feedbacks
        }
    }

    /// The theme first, then its parent, its parent's parent, …
    public var chain: [File]
    /// Everything that was accepted only after a leniency, in file order (the theme's file first).
    public var warnings: [PatternDiagnostic]

    /// The most themes one chain may hold (the theme and seven ancestors).
    public static let maximumChainLength = 8

    /// Creates a theme from its chain.
    public init(chain: [File], warnings: [PatternDiagnostic] = []) {
        precondition(!chain.isEmpty, "a feedbackd theme needs at least its own file")
        self.chain = chain
        self.warnings = warnings
    }

    /// Decodes a theme file and, through `parents`, the chain of themes it inherits from.
    ///
    /// - Parameters:
    ///   - bytes: the theme file (UTF-8 JSON).
    ///   - file: the name diagnostics start with (`device.json:12:7: …`).
    ///   - parents: gives the bytes and file name of the theme called `name`, or `nil` when there
    ///     is none (then a `parent-name` of that name is an error). Not called for a theme without
    ///     a parent.
    public init(
        decoding bytes: [UInt8], file: String, limits: PatternLimits = .default,
        parents: (_ name: String) throws(PatternError) -> (bytes: [UInt8], file: String)? = { _ in nil }
    ) throws(PatternError) {
        var chain: [File] = []
        var warnings: [PatternDiagnostic] = []
        var requested: Set<String> = []
        var next: (bytes: [UInt8], file: String)? = (bytes, file)
        while let source = next {
            let decoded = try FeedbackdThemeDecoding.decode(source.bytes, fileName: source.file, limits: limits)
            warnings += decoded.warnings
            chain.append(decoded.file)
            guard let parentName = decoded.file.parentName else { break }
            let from = decoded.parentNameLocation
            func failure(_ message: String) -> PatternError {
                PatternError(file: source.file, line: from.line, column: from.column, path: "parent-name", message: message)
            }
            // A loop is a name met again: a theme's own, or one already asked for (a file whose
            // `name` is not the name it was found by).
            let loop = chain.firstIndex { $0.name == parentName } ?? (requested.contains(parentName) ? 0 : nil)
            if let loop {
                let names = (chain[loop...].map(\.name) + [parentName]).map { JSONString.quoted($0) }
                throw failure("the parent chain loops: \(names.joined(separator: " → "))")
            }
            requested.insert(parentName)
            if chain.count == Self.maximumChainLength {
                throw failure("more than \(Self.maximumChainLength) themes in the parent chain")
            }
            guard let parent = try parents(parentName) else {
                throw failure("the parent theme \(JSONString.quoted(parentName)) was not found")
            }
            next = parent
        }
        self.init(chain: chain, warnings: warnings)
    }

    /// Reads the theme file at `path` and its parents: the theme called `name` is `<name>.json` in
    /// the first of `searchFolders` that has it, else in `path`'s folder. feedbackd resolves a
    /// parent along its search path (`$XDG_CONFIG_HOME/feedbackd/themes`, then
    /// `<each of $XDG_DATA_DIRS>/feedbackd/themes`): given as `searchFolders`, a parent is found
    /// where feedbackd finds it. Each file is opened without blocking and refused beyond
    /// `limits.maximumFileSize`.
    public init(contentsOf path: String, searchFolders: [String] = [], limits: PatternLimits = .default) throws(PatternError) {
        let bytes = try readPatternFile(path, maximumSize: limits.maximumFileSize)
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) } ?? "."
        let folders = searchFolders + [slash == path.startIndex ? "/" : folder]
        try self.init(decoding: bytes, file: path, limits: limits) { (name: String) throws(PatternError) in
            // A name is a file name, never a path: feedbackd looks names up, it does not follow them.
            guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else { return nil }
            for folder in folders {
                let candidate = (folder.hasSuffix("/") ? folder : folder + "/") + name + ".json"
                if let bytes = try Self.readIfPresent(candidate, maximumSize: limits.maximumFileSize) {
                    return (bytes, candidate)
                }
            }
            return nil
        }
    }

    /// The bytes of the file at `path`; `nil` when there is no such file.
    private static func readIfPresent(_ path: String, maximumSize: Int) throws(PatternError) -> [UInt8]? {
        do {
            return try FileDescriptor.readContents(ofFile: path, maximumSize: maximumSize)
        } catch {
            if case .systemCall(let failure) = error, failure.errno == .noSuchFileOrDirectory { return nil }
            throw PatternError(file: path, line: 0, column: 0, path: "", message: error.description, readError: error)
        }
    }

    /// The theme's `name`.
    public var name: String { chain[0].name }

    /// The feedbacks feedbackd gives `event` at `level`, loudest section first: per section the
    /// level plays, the one of the first theme of the chain that has the event in that section.
    public func feedbacks(for event: String, level: FeedbackdLevel) -> [FeedbackdFeedback] {
        level.playedSections.compactMap { section in
            for file in chain {
                if let found = file.feedbacks.last(where: { $0.section == section && $0.event == event }) { return found }
            }
            return nil
        }
    }

    /// Every event the theme or a parent has a feedback for, sorted.
    public var events: [String] {
        Array(Set(chain.flatMap { $0.feedbacks.map(\.event) })).sorted()
    }
}
