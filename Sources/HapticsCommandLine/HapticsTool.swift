import Haptics
import HapticsSystem

/// The `haptics` command-line tool: picks the subcommand, handles `--help` and `--version`, and
/// turns errors into messages and exit statuses.
public enum HapticsTool {
    /// The tool's version: the library's (`HapticsLibrary.version`).
    public static let version = HapticsLibrary.version

    static var commands: [any Command.Type] {
        [
            ListCommand.self, DevicesCommand.self, InfoCommand.self, DoctorCommand.self, TestCommand.self, RumbleCommand.self, StopCommand.self,
            GainCommand.self, PlayCommand.self, DemoCommand.self, LatencyCommand.self, ValidateCommand.self, ConvertCommand.self,
            PlotCommand.self, VerifyCommand.self, TriggersCommand.self, EmulateCommand.self, SyncTestCommand.self, CompletionsCommand.self,
        ]
    }

    /// Runs the tool with `arguments` (without the program name) and returns the exit status.
    public static func main(arguments: [String], context: CommandContext) -> Int32 {
        let console = context.console
        guard let first = arguments.first else {
            // A command is needed: the overview is the usage message, on standard error.
            console.writeError(overview)
            return ExitStatus.usage
        }
        switch first {
        case "-h", "--help", "help":
            if arguments.count > 1, let command = commands.first(where: { $0.name == arguments[1] }) {
                console.write(Help.text(for: command))
            } else {
                console.write(overview)
            }
            return ExitStatus.success
        case "--version":
            console.line("haptics \(version) (\(HapticsLibrary.license) License)")
            return ExitStatus.success
        default:
            break
        }
        guard let command = commands.first(where: { $0.name == first }) else {
            console.errorLine("haptics: unknown command '\(PrintableText.escaped(first))'. See 'haptics --help'.")
            return ExitStatus.usage
        }
        let rest = Array(arguments.dropFirst())
        if rest.contains(where: { $0 == "--help" || $0 == "-h" }) {
            console.write(Help.text(for: command))
            return ExitStatus.success
        }
        do throws(CommandLineError) {
            let parsed = try command.init(arguments: rest)
            return try parsed.run(context)
        } catch {
            // Messages quote arguments, file names and device names: whatever a command missed
            // escaping is escaped here (escaping twice changes nothing).
            switch error {
            case let .usage(message):
                let message = PrintableText.escaped(message)
                console.errorLine("haptics \(command.name): \(message). See 'haptics \(command.name) --help'.")
            case let .failure(message):
                let message = PrintableText.escaped(message)
                console.errorLine("haptics \(command.name): \(message)")
            }
            return error.exitStatus
        }
    }

    /// The top-level help.
    static var overview: String {
        var text = """
            OVERVIEW: Play, inspect and verify haptic feedback on Linux devices.

            USAGE:
              haptics <command> [arguments] [options]

            COMMANDS:

            """
        text += Help.table(commands.map { HelpRow($0.name, $0.abstract) })
        text += """

            OPTIONS:
              -h, --help   Show help (also 'haptics <command> --help').
              --version    Show the version.

            ENVIRONMENT:
              NO_COLOR                 Set and not empty: no colour in drawings (nor with TERM=dumb or
                                       when the output is not a terminal).
              HAPTICS_INPUT_DIRECTORY  Where event nodes are looked for instead of /dev/input.
              XDG_CONFIG_HOME, XDG_DATA_DIRS
                                       Where feedbackd themes are found (feedbackd/themes in each).
              HAPTICS_RTKIT_BUS_ADDRESS
                                       Where rtkit is asked for realtime priority instead of the
                                       system bus (a D-Bus address).

            A feedback is written notification.success, impact.heavy, impact.light:0.5, selection.
            To bench a pad: haptics doctor, haptics test, haptics rumble 0.5 0.5, haptics stop.

            """
        return text
    }
}
