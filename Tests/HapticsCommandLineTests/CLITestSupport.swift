import Foundation
@testable import HapticsCommandLine

/// Runs the tool in-process and returns (status, stdout, stderr).
func runTool(_ arguments: String...) -> (status: Int32, output: String, error: String) {
    let console = BufferConsole()
    let status = HapticsTool.main(arguments: arguments, context: CommandContext(console: console))
    return (status, console.output, console.errorOutput)
}

/// A scratch folder for files the tests write, removed by the caller.
func scratchFolder() -> String {
    let path = NSTemporaryDirectory() + "haptics-cli-\(UUID().uuidString)"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}
