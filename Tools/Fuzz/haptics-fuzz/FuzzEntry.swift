// The fuzzing executable. Built by `Tools/fuzz` with `-D HAPTICS_FUZZING` and libFuzzer, it has no
// `main` of its own: libFuzzer's drives it through the two hooks below, and the environment
// `Tools/fuzz` sets says what to do (HAPTICS_FUZZ_TARGET, _WORKSPACE, _SEEDS, _REPOSITORY, _LIST).
// A normal `swift build` links the plain replayer at the bottom instead: the same targets, fed files
// once each, without libFuzzer or a sanitizer — for reading a crash in a debugger.
import Glibc
import HapticsFuzzing
import HapticsSystem

/// The value of the environment variable `name`, if set and not empty.
func environment(_ name: String) -> String? {
    guard let value = getenv(name), value.pointee != 0 else { return nil }
    return String(cString: value)
}

/// A fresh folder under `parent`, made by `mkdtemp`.
func makeWorkspace(in parent: String) -> String? {
    var template = Array("\(parent)/workspace.XXXXXX".utf8CString)
    return template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!).map { String(cString: $0) } }
}

/// Prints `message` on standard error and exits with `status`.
func fail(_ message: String, status: CInt) -> Never {
    let line = Array((message + "\n").utf8)
    _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    exit(status)
}

/// `fail` for an unknown target name: lists the known ones.
func unknownTarget(_ name: String) -> Never {
    fail("haptics-fuzz: no target \"\(name)\"; targets: \(FuzzTarget.all.map(\.name).joined(separator: ", "))", status: 64)
}

#if HAPTICS_FUZZING

/// The target fuzzed and its workspace, set once by `LLVMFuzzerInitialize` before any input.
nonisolated(unsafe) var session: (target: FuzzTarget, workspace: String)?

/// libFuzzer's first call. Lists the targets, writes a target's seeds, or picks the target to fuzz.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
    if environment("HAPTICS_FUZZ_LIST") != nil {
        for target in FuzzTarget.all { print(target.name) }
        exit(0)
    }
    guard let name = environment("HAPTICS_FUZZ_TARGET") else { fail("haptics-fuzz: HAPTICS_FUZZ_TARGET is not set", status: 64) }
    guard let target = FuzzTarget.named(name) else { unknownTarget(name) }
    if let corpus = environment("HAPTICS_FUZZ_SEEDS") {
        guard let repository = environment("HAPTICS_FUZZ_REPOSITORY") else { fail("haptics-fuzz: HAPTICS_FUZZ_REPOSITORY is not set", status: 64) }
        let seeds = target.seeds(repository: repository)
        for seed in seeds {
            // One name per seed, so seeding again replaces the copy instead of adding one.
            let file = corpus + "/seed-" + seed.name.map { $0 == "/" ? "-" : $0 }
            do {
                try FileDescriptor.writeContents(seed.bytes, toFile: file)
            } catch {
                fail("haptics-fuzz: \(file): \(error)", status: 73)
            }
        }
        print("\(seeds.count) seeds")
        exit(0)
    }
    let parent = environment("HAPTICS_FUZZ_WORKSPACE") ?? environment("TMPDIR") ?? "/tmp"
    guard let workspace = makeWorkspace(in: parent) else { fail("haptics-fuzz: cannot make a folder in \(parent)", status: 73) }
    session = (target, workspace)
    return 0
}

/// libFuzzer's call for every input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let session else { fail("haptics-fuzz: no target chosen", status: 70) }
    let input = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    session.target.run(input, workspace: session.workspace)
    return 0
}

#else

/// Without libFuzzer: `haptics-fuzz --list`, or `haptics-fuzz <target> <file>...` to feed files to a
/// target once each.
@main
enum FuzzReplay {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments == ["--list"] {
            for target in FuzzTarget.all { print(target.name) }
            return
        }
        guard arguments.count >= 2 else {
            fail("usage: haptics-fuzz --list | <target> <file>...   (fuzzing: Tools/fuzz <target>)", status: 64)
        }
        guard let target = FuzzTarget.named(arguments[0]) else { unknownTarget(arguments[0]) }
        guard let workspace = makeWorkspace(in: environment("TMPDIR") ?? "/tmp") else { fail("haptics-fuzz: cannot make a folder", status: 73) }
        defer { rmdir(workspace) }
        for path in arguments.dropFirst() {
            let bytes: [UInt8]
            do {
                bytes = try FileDescriptor.readContents(ofFile: path, maximumSize: 1 << 24)
            } catch {
                fail("haptics-fuzz: \(path): \(error)", status: 66)
            }
            target.run(bytes, workspace: workspace)
            print("\(target.name): \(path): no crash")
        }
    }
}

#endif
