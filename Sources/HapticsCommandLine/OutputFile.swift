import HapticsSystem

/// A file a command writes, given as `-o/--output <file>`: what is written is told by the file's
/// extension, and an extension the command cannot write is refused before anything runs.
struct OutputFile: Equatable {
    /// What a command can write.
    enum Format: String, CaseIterable {
        /// An SVG drawing.
        case svg
        /// A 48 kHz WAV file.
        case wav
        /// Chrome/Perfetto trace-event JSON.
        case json
        /// An AHAP pattern.
        case ahap
        /// A `.haptic` clip.
        case haptic
    }

    /// The path as given.
    let path: String
    /// What goes into it.
    let format: Format

    /// The output `path`, which must end in one of `accepted` (`.svg`, …; any case).
    init(_ path: String, accepted: [Format]) throws(CommandLineError) {
        let lowered = path.lowercased()
        guard let format = accepted.first(where: { lowered.hasSuffix("." + $0.rawValue) }) else {
            throw .usage("cannot tell what to write to '\(PrintableText.escaped(path))': name it "
                + accepted.map { "." + $0.rawValue }.joined(separator: " or "))
        }
        self.path = path
        self.format = format
    }

    /// The help row of `-o` for a command that writes `formats`, each with what it writes.
    static func help(_ formats: [(Format, String)], repeatable: Bool = false) -> HelpRow {
        let what = formats.map { ".\($0.0.rawValue) \($0.1)" }.joined(separator: ", ")
        return HelpRow("-o, --output <file>", "Write a file, what by its extension: \(what)." + (repeatable ? " Repeat for several files." : ""))
    }

    /// Writes `bytes` (replacing the file whole) and says so on standard error.
    func write(_ bytes: [UInt8], _ context: CommandContext) throws(CommandLineError) {
        try Self.write(bytes, to: path, context)
    }

    /// Writes `text` as UTF-8 and says so on standard error.
    func write(_ text: String, _ context: CommandContext) throws(CommandLineError) {
        try write(Array(text.utf8), context)
    }

    /// Writes `bytes` to `path`: `wrote <path> (<n> bytes)` on standard error, or a failure that
    /// says why (the system's reason).
    static func write(_ bytes: [UInt8], to path: String, _ context: CommandContext) throws(CommandLineError) {
        do {
            try FileDescriptor.writeContents(bytes, toFile: path)
        } catch {
            throw .failure("cannot write \(PrintableText.escaped(path)): \(error.errno.message)")
        }
        context.console.errorLine("wrote \(PrintableText.escaped(path)) (\(bytes.count) bytes)")
    }
}

/// `-o/--output` given once or more: the files, each checked against what the command writes.
struct OutputFiles {
    /// The files in the order given.
    var files: [OutputFile] = []

    /// The file of `format`, when one was given.
    func file(_ format: OutputFile.Format) -> OutputFile? { files.first { $0.format == format } }

    /// Consumes `-o`/`--output` if `item` is one; returns whether it was. A second file of the same
    /// format is refused.
    mutating func parse(_ item: ArgumentCursor.Item, _ cursor: inout ArgumentCursor,
                        accepted: [OutputFile.Format]) throws(CommandLineError) -> Bool {
        let value: String
        switch item {
        case let .option("output", inline): value = try cursor.value(for: "output", inline: inline)
        case .shortOption("o"): value = try cursor.value(for: "output", inline: nil)
        default: return false
        }
        let file = try OutputFile(value, accepted: accepted)
        if accepted.count == 1, !files.isEmpty {
            throw .usage("-o given twice")
        }
        guard self.file(file.format) == nil else { throw .usage("two .\(file.format.rawValue) outputs") }
        files.append(file)
        return true
    }
}
