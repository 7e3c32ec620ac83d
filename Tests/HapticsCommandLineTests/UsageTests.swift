import Testing
@testable import HapticsCommandLine

@Suite("Usage errors and help")
struct UsageTests {
    @Test("usage errors exit 64 with a one-line hint", arguments: [
        (["play"], "haptics play: missing the feedback or file to play. See 'haptics play --help'.\n"),
        (["play", "selection", "extra"], "haptics play: unexpected argument 'extra'. See 'haptics play --help'.\n"),
        (["play", "selection", "--bogus"], "haptics play: unknown option --bogus. See 'haptics play --help'.\n"),
        (["play", "selection", "--plot"], "haptics play: option --plot needs a value. See 'haptics play --help'.\n"),
        (["play", "selection", "--profile", "nope"], "haptics play: unknown profile 'nope' (available: generic-rumble, dualsense, dualshock4, xbox, switch-pro, phone-vibra, constant-force-wheel, simulated). See 'haptics play --help'.\n"),
        (["play", "selection", "--device", "/dev/input/event9"], "haptics play: unknown device '/dev/input/event9' (available: simulated). See 'haptics play --help'.\n"),
        (["play", "impact.huge"], "haptics play: unknown feedback \"impact.huge\"; valid names: notification.success, notification.warning, notification.error, impact.light, impact.medium, impact.heavy, impact.soft, impact.rigid, selection. See 'haptics play --help'.\n"),
        (["validate"], "haptics validate: missing the files to validate. See 'haptics validate --help'.\n"),
        (["plot", "selection"], "haptics plot: missing -o <out.svg>. See 'haptics plot --help'.\n"),
        (["list", "extra"], "haptics list: unexpected argument 'extra'. See 'haptics list --help'.\n"),
        (["frobnicate"], "haptics: unknown command 'frobnicate'. See 'haptics --help'.\n"),
    ])
    func usageErrors(arguments: [String], message: String) {
        let console = BufferConsole()
        let status = HapticsTool.main(arguments: arguments, context: CommandContext(console: console))
        #expect(status == 64)
        #expect(console.errorOutput == message)
        #expect(console.output == "")
    }

    @Test("--version")
    func version() {
        let result = runTool("--version")
        #expect(result.status == 0)
        #expect(result.output == "haptics 0.1.0\n")
    }

    @Test("top-level help lists every command")
    func overview() {
        let result = runTool("--help")
        #expect(result.status == 0)
        #expect(result.output == """
            OVERVIEW: Play, inspect and verify haptic feedback on Linux devices.

            USAGE:
              haptics <command> [arguments] [options]

            COMMANDS:
              list      List the feedback vocabulary.
              play      Play a feedback or a pattern file.
              demo      Play every feedback of the vocabulary in turn.
              validate  Check pattern files; exit 0 when all decode, 1 otherwise.
              plot      Draw what a feedback or pattern file does on a device, as SVG.

            OPTIONS:
              -h, --help   Show help (also 'haptics <command> --help').
              --version    Show the version.

            A feedback is written notification.success, impact.heavy, impact.light:0.5, selection.

            """)
    }

    @Test("play --help is rendered from the command's metadata")
    func playHelp() {
        let result = runTool("play", "--help")
        #expect(result.status == 0)
        #expect(result.output == """
            OVERVIEW: Play a feedback or a pattern file.

            USAGE:
              haptics play <feedback|file.ahap> [--device simulated] [--profile <name>] [--plot <file.svg>] [--wav <file.wav>] [--json]

            ARGUMENTS AND OPTIONS:
              <feedback|file.ahap>  A feedback (notification.success, impact.heavy, impact.light:0.5, selection) or an AHAP file.
              --device <name>       Where to play: simulated (default).
              --profile <name>      Device profile the simulated device behaves like (default: simulated).
              --plot <file.svg>     Also write the motors over time as an SVG plot.
              --wav <file.wav>      Also write the haptic signal as audible sound (48 kHz WAV).
              --json                One JSON object per line: every device command, then a summary.
              -h, --help            Show this help.

            On the simulated device the motors are drawn in the terminal as they were driven, in real time
            through the realtime scheduler.

            """)
    }

    @Test("validate --help and help <command> agree")
    func validateHelp() {
        let direct = runTool("validate", "--help")
        let viaHelp = runTool("help", "validate")
        #expect(direct.output == viaHelp.output)
        #expect(direct.output == """
            OVERVIEW: Check pattern files; exit 0 when all decode, 1 otherwise.

            USAGE:
              haptics validate <file.ahap>... [--json]

            ARGUMENTS AND OPTIONS:
              <file.ahap>...  Pattern files to check.
              --json          One JSON object per file.
              -h, --help      Show this help.

            Errors and warnings go to standard error as file:line:column: path: message.

            """)
    }
}
