/// One subcommand of `haptics`: its metadata (from which `--help` is rendered), argument parsing,
/// and the work itself.
protocol Command {
    /// The word that selects the command (`play`).
    static var name: String { get }
    /// One line saying what the command does.
    static var abstract: String { get }
    /// Usage lines without the program name (`play <feedback|file> [options]`).
    static var usage: [String] { get }
    /// Arguments and options, as (syntax, explanation) rows.
    static var options: [HelpRow] { get }
    /// Extra paragraphs after the options (examples, notes).
    static var discussion: String { get }

    /// Parses the arguments after the command name. `--help` is handled before this is called.
    init(arguments: [String]) throws(CommandLineError)
    /// Does the work; returns the exit status (errors are thrown).
    func run(_ context: CommandContext) throws(CommandLineError) -> Int32
}

extension Command {
    static var discussion: String { "" }
}

/// One row of a help table.
struct HelpRow {
    /// How the argument is written (`--plot <file.svg>`).
    let syntax: String
    /// What it does.
    let help: String
    init(_ syntax: String, _ help: String) {
        self.syntax = syntax
        self.help = help
    }
}

/// What a running command may use: the console and the environment it was started in.
public struct CommandContext {
    /// Where output goes.
    public let console: Console
    /// Environment variables (`NO_COLOR`, `HAPTICS_DEVICE`).
    public let environment: [String: String]

    /// Creates a context.
    public init(console: Console, environment: [String: String] = [:]) {
        self.console = console
        self.environment = environment
    }

    /// Whether drawings on standard output may be coloured: it is a terminal that is not `dumb`,
    /// and `NO_COLOR` is unset or empty (no-color.org).
    var usesColor: Bool {
        console.isTerminal && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }
}

enum Help {
    /// Renders the `--help` text of a command from its metadata.
    static func text(for command: any Command.Type) -> String {
        var text = "OVERVIEW: \(command.abstract)\n\nUSAGE:\n"
        for usage in command.usage { text += "  haptics \(usage)\n" }
        if !command.options.isEmpty {
            text += "\nARGUMENTS AND OPTIONS:\n" + table(command.options + [HelpRow("-h, --help", "Show this help.")])
        }
        if !command.discussion.isEmpty { text += "\n" + command.discussion + "\n" }
        return text
    }

    /// Renders rows as an aligned two-column table.
    static func table(_ rows: [HelpRow]) -> String {
        let width = min(30, rows.map(\.syntax.count).max() ?? 0)
        var text = ""
        for row in rows {
            if row.syntax.count > width {
                text += "  \(row.syntax)\n" + String(repeating: " ", count: width + 4) + row.help + "\n"
            } else {
                text += "  " + row.syntax + String(repeating: " ", count: width - row.syntax.count + 2) + row.help + "\n"
            }
        }
        return text
    }
}
