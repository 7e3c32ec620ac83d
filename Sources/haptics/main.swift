import HapticsCommandLine
#if canImport(Glibc)
import Glibc
#endif

// The whole tool lives in HapticsCommandLine so it can be tested; this only connects it to the process.
let status = HapticsTool.main(
    arguments: Array(CommandLine.arguments.dropFirst()),
    context: CommandContext(console: StandardConsole(), environment: ProcessEnvironment.current())
)
exit(status)
