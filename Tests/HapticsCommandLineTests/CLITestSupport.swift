import Glibc
@testable import HapticsCommandLine
import HapticsTestSupport

/// Runs the tool in-process and returns (status, stdout, stderr). Devices are looked for in
/// `inputDirectory` (by default an empty folder), so a controller plugged into the machine running
/// the tests never changes what they see.
func runTool(_ arguments: String..., inputDirectory: String = emptyInputDirectory) -> (status: Int32, output: String, error: String) {
    runTool(arguments, inputDirectory: inputDirectory)
}

/// ``runTool(_:inputDirectory:)`` with the arguments as an array, and more of the environment.
func runTool(_ arguments: [String], inputDirectory: String = emptyInputDirectory,
             environment: [String: String] = [:]) -> (status: Int32, output: String, error: String) {
    let console = BufferConsole()
    // No theme of the machine's on the search path: an empty folder for both XDG variables.
    let hermetic = ["HAPTICS_INPUT_DIRECTORY": inputDirectory, "XDG_CONFIG_HOME": emptyInputDirectory, "XDG_DATA_DIRS": emptyInputDirectory]
    let context = CommandContext(console: console, environment: hermetic.merging(environment) { $1 })
    let status = HapticsTool.main(arguments: arguments, context: context)
    return (status, console.output, console.errorOutput)
}

/// A folder with no event nodes, removed when the test process exits.
let emptyInputDirectory: String = {
    atexit { emptyInputFolder.remove() }
    return emptyInputFolder.path
}()

private let emptyInputFolder = try! TemporaryFolder(prefix: "haptics-cli-no-input-devices")

/// A console that says it is a terminal, to test what only a terminal gets.
final class TerminalConsole: Console {
    var output = ""
    func write(_ text: String) { output += text }
    func writeError(_ text: String) { output += text }
    var isTerminal: Bool { true }
}
