import Foundation
@testable import HapticsCommandLine

/// Runs the tool in-process and returns (status, stdout, stderr). Devices are looked for in
/// `inputDirectory` (by default an empty folder), so a controller plugged into the machine running
/// the tests never changes what they see.
func runTool(_ arguments: String..., inputDirectory: String = emptyInputDirectory) -> (status: Int32, output: String, error: String) {
    let console = BufferConsole()
    let context = CommandContext(console: console, environment: ["HAPTICS_INPUT_DIRECTORY": inputDirectory])
    let status = HapticsTool.main(arguments: arguments, context: context)
    return (status, console.output, console.errorOutput)
}

/// A folder with no event nodes.
let emptyInputDirectory: String = {
    let path = NSTemporaryDirectory() + "haptics-cli-no-input-devices"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}()

/// A scratch folder for files the tests write, removed by the caller.
func scratchFolder() -> String {
    let path = NSTemporaryDirectory() + "haptics-cli-\(UUID().uuidString)"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}
