import Testing
@testable import HapticsCommandLine

@Suite("Usage errors and help")
struct UsageTests {
    @Test("usage errors exit 64 with a one-line hint", arguments: [
        (["play"], "haptics play: missing the feedback or file to play. See 'haptics play --help'.\n"),
        (["play", "selection", "extra"], "haptics play: unexpected argument 'extra'. See 'haptics play --help'.\n"),
        (["play", "selection", "--bogus"], "haptics play: unknown option --bogus. See 'haptics play --help'.\n"),
        (["play", "selection", "--audio-card", "2"], "haptics play: --audio-card needs --hd. See 'haptics play --help'.\n"),
        (["play", "selection", "--hd", "--device", "simulated"],
         "haptics play: --hd plays on a DualSense's voice coils only: leave out --audio, -o, --trace and --device simulated. See 'haptics play --help'.\n"),
        (["play", "selection", "--hd", "--rumble"], "haptics play: --hd and --rumble exclude each other. See 'haptics play --help'.\n"),
        (["play", "selection", "-o"], "haptics play: option --output needs a value. See 'haptics play --help'.\n"),
        (["play", "selection", "--profile", "nope"], "haptics play: unknown profile 'nope' (available: generic-rumble, dualsense, dualshock4, xbox, switch-pro, phone-vibra, constant-force-wheel, simulated, or a profile file). See 'haptics play --help'.\n"),
        (["play", "selection", "--device"], "haptics play: option --device needs a value. See 'haptics play --help'.\n"),
        (["play", "selection", "--device", "/dev/input/event9", "-o", "x.wav"], "haptics play: -o needs --device simulated. See 'haptics play --help'.\n"),
        (["devices", "extra"], "haptics devices: unexpected argument 'extra'. See 'haptics devices --help'.\n"),
        (["devices", "--all"], "haptics devices: unknown option --all. See 'haptics devices --help'.\n"),
        (["info"], "haptics info: missing the device (a path or part of its name). See 'haptics info --help'.\n"),
        (["info", "pad", "extra"], "haptics info: unexpected argument 'extra'. See 'haptics info --help'.\n"),
        (["verify"], "haptics verify: missing the device (a path or part of its name). See 'haptics verify --help'.\n"),
        (["verify", "pad", "-x"], "haptics verify: unknown option -x. See 'haptics verify --help'.\n"),
        (["emulate"], "haptics emulate: missing the device kind (dualsense or rumble-pad). See 'haptics emulate --help'.\n"),
        (["emulate", "joystick"], "haptics emulate: unknown device kind 'joystick' (available: dualsense, rumble-pad). See 'haptics emulate --help'.\n"),
        (["emulate", "dualsense", "rumble-pad"], "haptics emulate: unexpected argument 'rumble-pad'. See 'haptics emulate --help'.\n"),
        (["emulate", "rumble-pad", "--bluetooth"], "haptics emulate: --bluetooth is for dualsense only. See 'haptics emulate --help'.\n"),
        (["play", "impact.huge"], "haptics play: unknown feedback \"impact.huge\"; valid names: notification.success, notification.warning, notification.error, impact.light, impact.medium, impact.heavy, impact.soft, impact.rigid, selection. See 'haptics play --help'.\n"),
        (["validate"], "haptics validate: missing the files to validate. See 'haptics validate --help'.\n"),
        (["plot", "selection"], "haptics plot: missing -o <out.svg>. See 'haptics plot --help'.\n"),
        (["list", "extra"], "haptics list: unexpected argument 'extra'. See 'haptics list --help'.\n"),
        (["play", "selection", "--audio"], "haptics play: option --audio needs a value. See 'haptics play --help'.\n"),
        (["play", "button-pressed", "--theme", "t.json", "--level", "loud"], "haptics play: --level must be full, quiet or silent, not 'loud'. See 'haptics play --help'.\n"),
        (["play", "selection", "--level", "quiet"], "haptics play: --level, --sounds and --theme-path need --theme. See 'haptics play --help'.\n"),
        (["play", "--theme", "t.json"], "haptics play: missing the event to play. See 'haptics play --help'.\n"),
        (["sync-test", "--cues", "0"], "haptics sync-test: --cues needs a whole number from 1 to 1000, not '0'. See 'haptics sync-test --help'.\n"),
        (["sync-test", "--cues=many"], "haptics sync-test: --cues needs a whole number from 1 to 1000, not 'many'. See 'haptics sync-test --help'.\n"),
        (["sync-test", "--profile", "nope"], "haptics sync-test: unknown profile 'nope' (available: generic-rumble, dualsense, dualshock4, xbox, switch-pro, phone-vibra, constant-force-wheel, simulated, or a profile file). See 'haptics sync-test --help'.\n"),
        (["sync-test", "now"], "haptics sync-test: unexpected argument 'now'. See 'haptics sync-test --help'.\n"),
        (["sync-test", "--audio"], "haptics sync-test: option --audio needs a value. See 'haptics sync-test --help'.\n"),
        (["frobnicate"], "haptics: unknown command 'frobnicate'. See 'haptics --help'.\n"),
        (["triggers"], "haptics triggers: missing the device (a path or part of its name). See 'haptics triggers --help'.\n"),
        (["triggers", "pad"], "haptics triggers: nothing to set: give --left <effect>, --right <effect> or both. See 'haptics triggers --help'.\n"),
        (["triggers", "pad", "--left", "weapon:2,9,8"], "haptics triggers: --left: \"weapon:2,9,8\": weapon end zone 9 is outside 3…8. See 'haptics triggers --help'.\n"),
        (["triggers", "pad", "--right=feedback:3"], "haptics triggers: --right: \"feedback:3\": 2 numbers expected, 1 given; write feedback:zone(0-9),strength(1-8). See 'haptics triggers --help'.\n"),
        (["triggers", "pad", "--right", "vibration:4,6,x"], "haptics triggers: --right: \"vibration:4,6,x\": value 3 \"x\" is not a whole number; write vibration:zone(0-9),amplitude(1-8),frequency(1-255 Hz). See 'haptics triggers --help'.\n"),
        (["triggers", "pad", "--left", "debug\u{1B}[2J"], "haptics triggers: --left: \"debug\\u{1B}[2J\": unknown trigger effect \"debug\\u{1B}[2J\"; valid effects: off, feedback, weapon, vibration, slope, multi-feedback, multi-vibration, bow, galloping, machine. See 'haptics triggers --help'.\n"),
        (["triggers", "pad", "--left"], "haptics triggers: option --left needs a value. See 'haptics triggers --help'.\n"),
        (["rumble"], "haptics rumble: missing the strengths of the <low> and <high> motors. See 'haptics rumble --help'.\n"),
        (["rumble", "0.5", "101%"], "haptics rumble: <high> must be from 0 to 1 or 0% to 100%, not '101%'. See 'haptics rumble --help'.\n"),
        (["rumble", "1", "1", "--for", "61s"], "haptics rumble: --for needs a time from 1ms to 60s (500ms, 2s), not '61s'. See 'haptics rumble --help'.\n"),
        (["rumble", "1", "1", "--profile", "xbox"], "haptics rumble: --profile does not apply: rumble drives the device's effects directly, with no profile shaping them. See 'haptics rumble --help'.\n"),
        (["gain"], "haptics gain: missing the <level>. See 'haptics gain --help'.\n"),
        (["gain", "-1"], "haptics gain: unknown option -1. See 'haptics gain --help'.\n"),
        (["stop", "now"], "haptics stop: unexpected argument 'now'. See 'haptics stop --help'.\n"),
        (["test", "--all"], "haptics test: unknown option --all. See 'haptics test --help'.\n"),
    ])
    func usageErrors(arguments: [String], message: String) {
        let console = BufferConsole()
        let status = HapticsTool.main(arguments: arguments, context: CommandContext(console: console))
        #expect(status == 64)
        #expect(console.errorOutput == message)
        #expect(console.output == "")
    }

    @Test("no arguments: the overview on standard error as the usage, exit 64")
    func noArguments() {
        let result = runTool()
        #expect(result.status == 64)
        #expect(result.output == "")
        #expect(result.error == runTool("--help").output)
    }

    @Test("colour only on a terminal that is not dumb, and never with NO_COLOR set", arguments: [
        ([:], true),
        (["NO_COLOR": "1"], false),
        (["NO_COLOR": ""], true),
        (["TERM": "dumb"], false),
        (["TERM": "xterm-256color"], true),
    ])
    func colour(environment: [String: String], colour: Bool) {
        #expect(CommandContext(console: TerminalConsole(), environment: environment).usesColor == colour)
        #expect(CommandContext(console: BufferConsole(), environment: environment).usesColor == false)
    }

    @Test("--version")
    func version() {
        let result = runTool("--version")
        #expect(result.status == 0)
        #expect(result.output == "haptics 0.10.0 (MIT License)\n")
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
              list         List the feedback vocabulary.
              devices      List the force-feedback devices.
              info         Show one device's identity, capabilities and profile.
              doctor       Check what playing haptics here needs: devices, access, udev rule, realtime priority, sound, other holders.
              test         Step through every effect type a device reports; say what the kernel accepted and ask what was felt.
              rumble       Run a device's two rumble motors at given strengths for a while.
              stop         Stop every effect playing on a device, whoever started it.
              gain         Set a device's overall force-feedback strength (FF_GAIN).
              play         Play a feedback, a pattern file, a feedbackd theme's event, or the haptics of a sound.
              demo         Play every feedback of the vocabulary in turn.
              latency      Measure the latency of a prepared trigger, stage by stage, from the game's call.
              validate     Check pattern files and their sounds; exit 0 when all load, 1 otherwise.
              convert      Convert a pattern between AHAP and .haptic clips, a feedbackd theme's event or a sound to either.
              plot         Draw what a feedback or pattern file does on a device, or a sound and its haptics, as SVG.
              verify       Try each effect type on a device and report what the kernel accepted.
              triggers     Set the adaptive trigger effects of a DualSense.
              emulate      Create a virtual device and print what it is sent, until Ctrl-C.
              sync-test    Measure sound-to-haptic sync through a loopback sound card (snd-aloop).
              completions  Print the completion script of a shell (bash, zsh or fish), or the man page (man).

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

            """)
    }

    @Test("play --help is rendered from the command's metadata")
    func playHelp() {
        let result = runTool("play", "--help")
        #expect(result.status == 0)
        #expect(result.output == """
            OVERVIEW: Play a feedback, a pattern file, a feedbackd theme's event, or the haptics of a sound.

            USAGE:
              haptics play <feedback|file.ahap> [--device <path|name|simulated>] [--rumble] [--profile <name|file>] [--audio <alsa-device|file.wav|none>] [-o <file.svg|file.wav>]... [--trace <file.json>] [--json]
              haptics play <feedback|file.ahap> --hd [--device <path|name>] [--audio-card <card>] [--json]
              haptics play <event-name> --theme <theme> [--theme-path <folder>]... [--level full|quiet|silent] [--sounds <folder>] [--device …] [--audio …] [-o …] [--trace …] [--json]
              haptics play <sound.wav> [--actuator rumble|voice-coil] [--sensitivity <0…1>] [--gain <dB>] [--band <low>-<high>] [--min-event <s>] [--min-gap <s>] [--tolerance <x>] [--device …] [--audio …] [-o …] [--trace …] [--json]

            ARGUMENTS AND OPTIONS:
              <feedback|file.ahap>   A feedback (notification.success, impact.heavy, impact.light:0.5, selection) or a pattern file (AHAP or a .haptic clip).
              <sound.wav>            A sound: the haptics derived from it (as `convert` writes them), with the sound itself heard with --audio.
              <event-name>           With --theme: a feedbackd event (button-pressed, message-new-email, …), or a feedback with a feedbackd equivalent (selection: key-pressed).
              --theme <theme>        A feedbackd theme: a file, or a name found on the theme search path; its parents are found there too.
              --theme-path <folder>  Also look for themes and their parents here, before $XDG_CONFIG_HOME/feedbackd/themes and each $XDG_DATA_DIRS/feedbackd/themes. Repeatable.
              --level <level>        The feedbackd profile: full (default) plays the full, quiet and silent sections, quiet plays quiet and silent, silent only silent.
              --sounds <folder>      Where a theme's Sound feedbacks are, as <effect>.wav (default: the theme's folder); heard with --audio.
              --actuator <kind>      For a .wav input: the actuator the haptics are for, rumble (default: motors) or voice-coil; it sets the default --band.
              --sensitivity <0…1>    For a .wav input: how readily a rise in the sound is a transient; 0 keeps only clear hits, 1 takes small ones (default 0.5).
              --gain <dB>            For a .wav input: decibels added to the sound's level; intensity maps −48…0 dBFS to 0…1 (default 0; negative leaves headroom).
              --band <low>-<high>    For a .wav input: the frequencies in Hz mapped onto sharpness 0…1 (default 50-5000 for rumble, 40-1000 for voice-coil).
              --min-event <s>        For a .wav input: the shortest continuous event, and the shortest gap that splits one (default 0.05).
              --min-gap <s>          For a .wav input: the shortest time between two transients (default 0.05).
              --tolerance <x>        For a .wav input: how far the simplified curves may stray from the measured ones (default 0.04).
              --device <device>      Where to play: an event node path, part of a device's name, or simulated. Default: the first force-feedback device, else simulated.
              --profile <name|file>  The device profile to render for: a built-in name (dualsense, xbox, generic-rumble, …) or a profile file. Default: the device's own, simulated for the simulated device.
              --audio <output>       Also play the sound: the feedback's sound cue, the file's audio events, or the theme event's sounds. An ALSA device (default, hw:0,0), a .wav file to render it to (time 0 = the felt onset), or none (default).
              --hd                   Play it as HD haptics on a DualSense's voice coils, or fail: through the pad's sound card over USB, report 0x32 over Bluetooth. A pattern file plays so on a DualSense anyway when it can.
              --rumble               Play a pattern file as rumble on a DualSense (the kernel's emulation) instead of HD haptics.
              --audio-card <card>    With --hd over USB: the pad's sound card where it is not found from the pad: a number, an ALSA id or a hw: device.
              -o, --output <file>    Write a file, what by its extension: .svg the motors over time as a plot, .wav the haptic signal as audible sound (48 kHz). Repeat for several files.
              --trace <file.json>    Write the engine's trace: every command's stages (submitted, dequeued, written, felt), as Chrome/Perfetto trace-event JSON (ui.perfetto.dev, chrome://tracing).
              --json                 One JSON object per line: every device command, then a summary.
              -h, --help             Show this help.

            On the simulated device the motors are drawn on one line while the pattern plays (on a
            terminal), then in full as they were driven through the realtime scheduler. On a real device the feedback is prepared (effects uploaded)
            and then played; -o needs the simulated device. With --audio the sound is heard
            when the haptic is felt: the device starts early by its rise time. With --theme the event's
            vibrations at the level are felt together, its sounds are heard with --audio, and what is not
            played (a missing sound, an LED) is said on standard error.

            """)
    }

    @Test("validate --help and help <command> agree")
    func validateHelp() {
        let direct = runTool("validate", "--help")
        let viaHelp = runTool("help", "validate")
        #expect(direct.output == viaHelp.output)
        #expect(direct.output == """
            OVERVIEW: Check pattern files and their sounds; exit 0 when all load, 1 otherwise.

            USAGE:
              haptics validate <file>... [--theme-path <folder>]... [--json]

            ARGUMENTS AND OPTIONS:
              <file>...              Pattern files to check: AHAP, .haptic clips or feedbackd themes, told apart by content.
              --theme-path <folder>  Also look for themes and their parents here, before $XDG_CONFIG_HOME/feedbackd/themes and each $XDG_DATA_DIRS/feedbackd/themes. Repeatable.
              --json                 One JSON object per file.
              -h, --help             Show this help.

            Each file is decoded, then every AudioCustom waveform it names is read and decoded as play
            reads it: confined to the file's folder, within the same limits. A feedbackd theme is decoded
            with its parent chain, each parent <parent-name>.json found as feedbackd finds it (the
            --theme-path folders, $XDG_CONFIG_HOME/feedbackd/themes, each $XDG_DATA_DIRS/feedbackd/themes,
            then the theme's own folder), the chain is shown with the file of each parent, and every
            event's vibrations are made into a pattern at the full level. A FIFO, a device or a file over the size limit is refused
            without waiting or reading it. Errors and warnings go to standard error as
            file:line:column: path: message, with control characters escaped.

            """)
    }
}

@Suite("The live line while a pattern plays")
struct LiveMotorLineTests {
    @Test func theLineShowsBothMotorsAndTheTime() {
        #expect(LiveMotorLine.format(strong: 0.5, weak: 0.25, elapsed: .milliseconds(120))
                == "\r▶ +120 ms  strong ██████████░░░░░░░░░░  weak █████░░░░░░░░░░░░░░░\u{1B}[K")
    }

    @Test func onATerminalThePatternIsDrawnLiveThenInFull() {
        let console = TerminalConsole()
        let status = HapticsTool.main(arguments: ["play", "notification.success", "--device", "simulated"],
                                      context: CommandContext(console: console, environment: ["HAPTICS_INPUT_DIRECTORY": emptyInputDirectory]))
        #expect(status == 0)
        // Redrawn in place while it plays (240 ms: several times), erased, then the drawing.
        #expect(console.output.hasPrefix("\r▶ +"))
        #expect(console.output.components(separatedBy: "\r▶ +").count > 3)
        #expect(console.output.contains(LiveMotorLine.clear + "notification.success on the simulated device (profile simulated)\n"))
        let dumb = TerminalConsole()
        _ = HapticsTool.main(arguments: ["play", "notification.success", "--device", "simulated"],
                             context: CommandContext(console: dumb, environment: ["HAPTICS_INPUT_DIRECTORY": emptyInputDirectory, "TERM": "dumb"]))
        #expect(dumb.output.hasPrefix("notification.success on the simulated device (profile simulated)\n"))
    }
}
