import Glibc
import HapticsFuzzing
import HapticsSystem
import HapticsTestSupport
import Testing

/// A seed or a saved regression input of one target.
struct ReplayedInput: Sendable, CustomTestStringConvertible {
    var target: String
    var input: FuzzInput
    var testDescription: String { "\(target): \(input.name)" }

    static func all(regressions: Bool) -> [ReplayedInput] {
        FuzzTarget.all.flatMap { target in
            (regressions ? target.regressionInputs(repository: Repository.root) : target.seeds(repository: Repository.root))
                .map { ReplayedInput(target: target.name, input: $0) }
        }
    }

    /// `Tests/FuzzRegressions/KNOWN-CRASHES`: saved inputs that crash until a fix elsewhere lands,
    /// one `<target>/<file>  <why>` a line (`#` starts a comment). They are not run — an
    /// out-of-memory input would take the machine with it — and the line goes when the fix lands.
    static let knownCrashes: [String: String] = {
        let path = Repository.root + "/" + FuzzTarget.regressionFolder + "/KNOWN-CRASHES"
        guard let bytes = try? FileDescriptor.readContents(ofFile: path, maximumSize: 1 << 16) else { return [:] }
        var known: [String: String] = [:]
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: " ", maxSplits: 1)
            guard let name = fields.first else { continue }
            known[String(name)] = fields.count > 1 ? String(fields[1].drop { $0 == " " }) : ""
        }
        return known
    }()

    /// The input's path below `Tests/FuzzRegressions/`, as `KNOWN-CRASHES` names it.
    var knownCrashName: String { String(input.name.dropFirst(FuzzTarget.regressionFolder.count + 1)) }
}

/// Every input the fuzzer starts from, and every one that once made a target crash, fed to the
/// target the fuzzer runs: a crash found and saved under `Tests/FuzzRegressions/<target>/` is a
/// test from then on. Each input runs in a child process, so a crash fails its own case, named.
@Suite struct FuzzReplayTests {
    @Test func everyTargetHasSeedsAndTheRepositorysFilesAreAmongThem() {
        let seeds = Dictionary(uniqueKeysWithValues: FuzzTarget.all.map { ($0.name, $0.seeds(repository: Repository.root)) })
        for target in FuzzTarget.all { #expect(seeds[target.name]?.isEmpty == false, "\(target.name)") }
        let patterns = FuzzInput.files(in: "Patterns", repository: Repository.root, suffix: ".ahap").map(\.name)
        let cues = FuzzInput.files(in: "Patterns", repository: Repository.root, suffix: ".wav").map(\.name)
        #expect(!patterns.isEmpty && !cues.isEmpty)
        #expect(Set(patterns).isSubset(of: seeds["ahap"]?.map(\.name) ?? []))
        #expect(Set(cues).isSubset(of: seeds["wav"]?.map(\.name) ?? []))
    }

    @Test func everyRegressionFolderIsNamedAfterATarget() {
        let entries = entries(of: Repository.root + "/" + FuzzTarget.regressionFolder)
        let files = FuzzInput.files(in: FuzzTarget.regressionFolder, repository: Repository.root).map(\.name)
        let folders = Set(entries).subtracting(files.map { String($0.split(separator: "/").last!) })
        #expect(folders.isSubset(of: FuzzTarget.all.map(\.name)))
    }

    @Test(arguments: ReplayedInput.all(regressions: false))
    func seedDoesNotCrash(_ replayed: ReplayedInput) async {
        await replay(replayed)
    }

    @Test(arguments: ReplayedInput.all(regressions: true).filter { ReplayedInput.knownCrashes[$0.knownCrashName] == nil })
    func regressionInputDoesNotCrash(_ replayed: ReplayedInput) async {
        await replay(replayed)
    }

    @Test func everyKnownCrashIsASavedInputWithAReason() {
        let saved = Set(ReplayedInput.all(regressions: true).map(\.knownCrashName))
        for (name, reason) in ReplayedInput.knownCrashes {
            #expect(saved.contains(name), "KNOWN-CRASHES names \(name), which is not in Tests/FuzzRegressions")
            #expect(!reason.isEmpty, "KNOWN-CRASHES gives no reason for \(name)")
        }
    }

    private func replay(_ replayed: ReplayedInput) async {
        await #expect(processExitsWith: .success) { [target = replayed.target as String, bytes = replayed.input.bytes as [UInt8]] in
            // A regression back to a hang or a runaway allocation fails this case instead of
            // stalling the suite or exhausting the machine; the address and thread sanitizers need
            // the address space unlimited (their shadow memory is mapped up front: the thread
            // sanitizer exits with 66 under a limit), and the address sanitizer bounds allocations
            // itself.
            alarm(30)
            let sanitized = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") != nil
                || dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") != nil
            if !sanitized {
                var limit = rlimit(rlim_cur: 8 << 30, rlim_max: 8 << 30)
                setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit)
            }
            let workspace = try TemporaryFolder(prefix: "haptics-fuzz-replay")
            FuzzTarget.named(target)?.run(bytes, workspace: workspace.path)
            precondition(entries(of: workspace.path).isEmpty, "the target left files in its workspace")
        }
    }
}

/// The names in `folder` but `.` and `..`.
func entries(of folder: String) -> [String] {
    guard let handle = opendir(folder) else { return [] }
    defer { closedir(handle) }
    var names: [String] = []
    while let entry = readdir(handle) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if name != "." && name != ".." { names.append(name) }
    }
    return names
}
