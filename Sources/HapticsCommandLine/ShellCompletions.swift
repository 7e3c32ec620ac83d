/// Completion scripts for bash, zsh and fish, and the man page, made from the ``OptionTable``.
enum ShellCompletions {
    static func bash(_ table: OptionTable) -> String {
        var text = """
            # bash completion for haptics; made by 'haptics completions bash'.
            _haptics() {
                local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} options values
                if [ "$COMP_CWORD" -eq 1 ]; then
                    COMPREPLY=($(compgen -W "\(table.entries.map { $0.command.name }.joined(separator: " ")) help --help --version" -- "$cur"))
                    return
                fi
                case ${COMP_WORDS[1]} in

            """
        for entry in table.entries {
            let all = entry.options.flatMap { option in [option.long] + (option.short.map { ["-\($0)"] } ?? []) }
            let values = entry.options.filter { $0.value != nil }.flatMap { option in [option.long] + (option.short.map { ["-\($0)"] } ?? []) }
            text += "        \(entry.command.name)) options=\"\(all.joined(separator: " "))\" values=\"\(values.joined(separator: " "))\" ;;\n"
        }
        text += """
                    *) return ;;
                esac
                # An option's value: a file name (a device node, a pattern, a folder).
                if [[ " $values " == *" $prev "* ]]; then
                    COMPREPLY=($(compgen -f -- "$cur"))
                elif [[ $cur == -* ]]; then
                    COMPREPLY=($(compgen -W "$options" -- "$cur"))
                else
                    COMPREPLY=($(compgen -f -- "$cur"))
                fi
            }
            complete -o filenames -F _haptics haptics

            """
        return text
    }

    static func zsh(_ table: OptionTable) -> String {
        func escape(_ text: String) -> String {
            var escaped = ""
            for character in OptionTable.firstSentence(text) {
                switch character {
                case "[", "]", ":", "\\": escaped += "\\" + String(character)
                case "'": escaped += "'\\''"
                default: escaped.append(character)
                }
            }
            return escaped
        }
        var text = """
            #compdef haptics
            # zsh completion for haptics; made by 'haptics completions zsh'.
            _haptics() {
                local -a commands
                commands=(

            """
        for entry in table.entries {
            text += "        '\(entry.command.name):\(escape(entry.command.abstract))'\n"
        }
        text += """
                )
                if (( CURRENT == 2 )); then
                    _describe 'command' commands
                    return
                fi
                shift words
                (( CURRENT-- ))
                case $words[1] in

            """
        for entry in table.entries {
            text += "        \(entry.command.name))\n            _arguments -s \\\n"
            for option in entry.options {
                let described = "[\(escape(option.help))]" + (option.value.map { ":\($0):_files" } ?? "")
                if let short = option.short {
                    // Either spelling, not both: '(-o --output)'{-o,--output}'[…]'.
                    text += "                '(-\(short) \(option.long))'{-\(short),\(option.long)}'\(described)' \\\n"
                } else {
                    text += "                '\(option.long)\(described)' \\\n"
                }
            }
            text += "                '*:file:_files' ;;\n"
        }
        text += """
                esac
            }
            _haptics "$@"

            """
        return text
    }

    static func fish(_ table: OptionTable) -> String {
        func escape(_ text: String) -> String {
            OptionTable.firstSentence(text).replacing("\\", with: "\\\\").replacing("'", with: "\\'")
        }
        var text = "# fish completion for haptics; made by 'haptics completions fish'.\ncomplete -c haptics -f\n"
        for entry in table.entries {
            text += "complete -c haptics -n __fish_use_subcommand -a \(entry.command.name) -d '\(escape(entry.command.abstract))'\n"
        }
        for entry in table.entries {
            for option in entry.options {
                var line = "complete -c haptics -n '__fish_seen_subcommand_from \(entry.command.name)' -l \(option.long.dropFirst(2))"
                if let short = option.short { line += " -s \(short)" }
                if option.value != nil { line += " -r -F" }
                text += line + " -d '\(escape(option.help))'\n"
            }
        }
        return text
    }

    /// The man page, haptics(1), in roff.
    static func manPage(_ table: OptionTable) -> String {
        func roff(_ text: String) -> String {
            var escaped = ""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\\": escaped += "\\e"
                case "-": escaped += "\\-"
                // Beyond ASCII as groff's named Unicode characters, whatever the input encoding.
                case _ where scalar.value > 127:
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    escaped += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
                default: escaped.unicodeScalars.append(scalar)
                }
            }
            if escaped.hasPrefix(".") || escaped.hasPrefix("'") { escaped = "\\&" + escaped }
            return escaped
        }
        var text = """
            .TH HAPTICS 1 "" "haptics \(HapticsTool.version)" "User Commands"
            .SH NAME
            haptics \\- play, inspect and verify haptic feedback on Linux devices
            .SH SYNOPSIS
            .B haptics
            .I command
            [\\fIarguments\\fR] [\\fIoptions\\fR]
            .SH DESCRIPTION
            haptics plays feedback, pattern files and feedbackd themes on Linux force\\-feedback devices
            and shows what the device was told. It is also a device testbench: test, rumble, stop and
            gain bench a pad directly, and doctor says what this machine needs.
            .SH COMMANDS

            """
        for entry in table.entries {
            text += ".SS \(entry.command.name)\n\(roff(entry.command.abstract))\n"
            for usage in entry.command.usage { text += ".PP\n.B haptics \(roff(usage))\n" }
            for row in entry.command.options + [HelpRow("-h, --help", "Show this help.")] {
                text += ".TP\n.B \(roff(row.syntax))\n\(roff(row.help))\n"
            }
            if !entry.command.discussion.isEmpty {
                text += ".PP\n" + entry.command.discussion.split(separator: "\n").map { roff(String($0)) }.joined(separator: "\n") + "\n"
            }
        }
        text += """
            .SH ENVIRONMENT
            .TP
            .B NO_COLOR
            Set and not empty: no colour in drawings.
            .TP
            .B TERM
            dumb: no colour in drawings.
            .TP
            .B HAPTICS_INPUT_DIRECTORY
            Where event nodes are looked for instead of /dev/input.
            .TP
            .B XDG_CONFIG_HOME, XDG_DATA_DIRS
            Where feedbackd themes and their parents are found (feedbackd/themes in each).
            .TP
            .B HAPTICS_RTKIT_BUS_ADDRESS
            The D-Bus address where rtkit is asked for realtime priority, instead of the system bus.
            .SH EXIT STATUS
            0 when it worked, 1 when the command ran and something failed, 64 when the command line
            was wrong.

            """
        return text
    }
}

/// `haptics completions`: a shell's completion script.
struct CompletionsCommand: Command {
    static let name = "completions"
    static let abstract = "Print the completion script of a shell (bash, zsh or fish), or the man page (man)."
    static let usage = ["completions bash|zsh|fish|man"]
    static let options = [HelpRow("<shell>", "bash, zsh or fish; man prints haptics(1) in roff.")]
    static let discussion = """
        bash: haptics completions bash > ~/.local/share/bash-completion/completions/haptics
        zsh:  haptics completions zsh > ~/.zfunc/_haptics   (with ~/.zfunc in fpath)
        fish: haptics completions fish > ~/.config/fish/completions/haptics.fish
        man:  haptics completions man > ~/.local/share/man/man1/haptics.1
        """

    var shell: String

    init(arguments: [String]) throws(CommandLineError) {
        let parsed = try JSONAndPositionals(arguments, maximumPositionals: 1, missing: "missing the shell (bash, zsh or fish) or man")
        guard ["bash", "zsh", "fish", "man"].contains(parsed.positionals[0]) else {
            throw .usage("unknown shell '\(parsed.positionals[0])' (available: bash, zsh, fish, or man)")
        }
        if parsed.json { throw .usage("--json does not apply: the output is a script") }
        shell = parsed.positionals[0]
    }

    func run(_ context: CommandContext) throws(CommandLineError) -> Int32 {
        let table = OptionTable()
        switch shell {
        case "bash": context.console.write(ShellCompletions.bash(table))
        case "zsh": context.console.write(ShellCompletions.zsh(table))
        case "fish": context.console.write(ShellCompletions.fish(table))
        default: context.console.write(ShellCompletions.manPage(table))
        }
        return ExitStatus.success
    }
}
