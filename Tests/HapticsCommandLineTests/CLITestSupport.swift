import Glibc
@testable import HapticsCommandLine
import HapticsTestSupport

/// Runs the tool in-process and returns (status, stdout, stderr). Devices are looked for in
/// `inputDirectory` (by default an empty folder), so a controller plugged into the machine running
/// the tests never changes what they see.
func runTool(_ arguments: String..., inputDirectory: String = emptyInputDirectory) -> (status: Int32, output: String, error: String) {
    let console = BufferConsole()
    let context = CommandContext(console: console, environment: ["HAPTICS_INPUT_DIRECTORY": inputDirectory])
    let status = HapticsTool.main(arguments: arguments, context: context)
    return (status, console.output, console.errorOutput)
}

/// A folder with no event nodes, removed when the test process exits.
let emptyInputDirectory: String = {
    atexit { emptyInputFolder.remove() }
    return emptyInputFolder.path
}()

private let emptyInputFolder = try! TemporaryFolder(prefix: "haptics-cli-no-input-devices")
