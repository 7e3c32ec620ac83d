/// The options of every command as the help shows them, read back from its help rows: the one
/// table `--help`, the shell completions and the man page are made from.
struct OptionTable {
    /// One option of one command.
    struct Option: Equatable {
        /// `--device`, and `-o` when it has a short form.
        var long: String
        var short: Character?
        /// Whether it takes a value (`--device <device>`), and the value's name (`device`).
        var value: String?
        /// The help text.
        var help: String
    }

    /// A command's name, abstract, options and help rows.
    struct Entry {
        var command: any Command.Type
        var options: [Option]
    }

    let entries: [Entry]

    init(_ commands: [any Command.Type] = HapticsTool.commands) {
        entries = commands.map { Entry(command: $0, options: Self.options(of: $0.options + [HelpRow("-h, --help", "Show this help.")])) }
    }

    /// The options among `rows` (a row whose syntax starts with `-`).
    static func options(of rows: [HelpRow]) -> [Option] {
        rows.compactMap { row in
            guard row.syntax.hasPrefix("-") else { return nil }
            var option = Option(long: "", short: nil, value: nil, help: row.help)
            for word in row.syntax.split(separator: " ") {
                let word = word.hasSuffix(",") ? word.dropLast() : word
                if word.hasPrefix("--") {
                    option.long = String(word)
                } else if word.hasPrefix("-"), word.count == 2 {
                    option.short = word.last
                } else if word.hasPrefix("<") {
                    option.value = String(word.dropFirst().prefix { $0 != ">" })
                }
            }
            return option.long.isEmpty ? nil : option
        }
    }

    /// The first sentence of `text`: what a completion menu shows.
    static func firstSentence(_ text: String) -> String {
        guard let end = text.firstRange(of: ". ") else { return text.hasSuffix(".") ? String(text.dropLast()) : text }
        return String(text[..<end.lowerBound])
    }
}
