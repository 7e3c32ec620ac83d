import Foundation
import Testing
@testable import HapticsCommandLine

/// Completions and the man page come from the commands' option table, so nothing is left out.
@Suite("completions and man page")
struct CompletionsTests {
    @Test func everyOptionOfEveryCommandIsInEveryScriptAndThePage() {
        let table = OptionTable()
        let bash = runTool("completions", "bash").output
        let zsh = runTool("completions", "zsh").output
        let fish = runTool("completions", "fish").output
        let man = runTool("completions", "man").output
        for entry in table.entries {
            let name = entry.command.name
            #expect(bash.contains("        \(name)) options=\""), "\(name)")
            #expect(zsh.contains("        \(name))\n"), "\(name)")
            #expect(fish.contains("-a \(name) -d"), "\(name)")
            #expect(man.contains(".SS \(name)\n"), "\(name)")
            for option in entry.options {
                #expect(bash.contains(option.long), "\(name) \(option.long)")
                #expect(zsh.contains(option.long), "\(name) \(option.long)")
                #expect(fish.contains("'__fish_seen_subcommand_from \(name)' -l \(option.long.dropFirst(2))"), "\(name) \(option.long)")
                #expect(man.contains(".B " + option.long.replacing("-", with: "\\-")) || man.contains(", " + option.long.replacing("-", with: "\\-")), "\(name) \(option.long)")
            }
        }
    }

    @Test func theOptionTableReadsTheHelpRows() {
        #expect(OptionTable.options(of: [
            HelpRow("-o, --output <file>", "Write a file."),
            HelpRow("--json", "JSON."),
            HelpRow("<low>", "Not an option."),
        ]) == [
            .init(long: "--output", short: "o", value: "file", help: "Write a file."),
            .init(long: "--json", short: nil, value: nil, help: "JSON."),
        ])
    }

    @Test func rumbleInEachShell() {
        let bash = runTool("completions", "bash").output
        #expect(bash.contains(#"        rumble) options="--for --device --json --help -h" values="--for --device" ;;"#))
        let zsh = runTool("completions", "zsh").output
        #expect(zsh.contains("""
                    rumble)
                        _arguments -s \\
                            '--for[How long\\: 500ms (default), 2s, 1.5s; at most 60s]:time:_files' \\
                            '--device[An event node path or part of a device'\\''s name]:device:_files' \\
                            '--json[One JSON object saying what the kernel did]' \\
                            '(-h --help)'{-h,--help}'[Show this help]' \\
                            '*:file:_files' ;;
            """))
        let fish = runTool("completions", "fish").output
        #expect(fish.contains("""
            complete -c haptics -n '__fish_seen_subcommand_from rumble' -l for -r -F -d 'How long: 500ms (default), 2s, 1.5s; at most 60s'
            complete -c haptics -n '__fish_seen_subcommand_from rumble' -l device -r -F -d 'An event node path or part of a device\\'s name'
            """))
    }

    @Test func theBashScriptParses() throws {
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("haptics-completion-\(getpid()).bash")
        try runTool("completions", "bash").output.write(to: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: script) }
        let bash = Process()
        bash.executableURL = URL(fileURLWithPath: "/bin/bash")
        bash.arguments = ["-n", script.path]
        try bash.run()
        bash.waitUntilExit()
        #expect(bash.terminationStatus == 0)
    }

    @Test func anUnknownShellIsAUsageError() {
        let result = runTool("completions", "tcsh")
        #expect(result.status == 64)
        #expect(result.error == "haptics completions: unknown shell 'tcsh' (available: bash, zsh, fish, or man). See 'haptics completions --help'.\n")
    }
}
