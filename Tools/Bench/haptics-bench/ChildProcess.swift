import Glibc

/// Runs `arguments` (the first is looked up in `PATH`) as a child process and waits for it.
/// Returns its exit status, or `nil` when it could not be started or was killed by a signal.
func runChildProcess(_ arguments: [String]) -> Int32? {
    let argv = arguments.map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    var child = pid_t()
    guard posix_spawnp(&child, arguments[0], nil, nil, argv, environ) == 0 else { return nil }
    var status: Int32 = 0
    while waitpid(child, &status, 0) < 0 {
        guard errno == EINTR else { return nil }
    }
    // WIFEXITED / WEXITSTATUS are macros Swift cannot import.
    guard status & 0x7F == 0 else { return nil }
    return (status >> 8) & 0xFF
}

/// The path of the running executable.
func executablePath() -> String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    return length > 0 ? String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        : CommandLine.arguments[0]
}
