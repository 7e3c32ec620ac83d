import Glibc
import HapticsSystem
import HapticsTestSupport
import Testing

/// A confined folder reads a file only when the kernel says the descriptor it opened is inside the
/// folder, compared as bytes, and reads it from that descriptor: no look-alike folder, no link out,
/// no FIFO, no huge file, and no window in which the name can be swapped.
@Suite struct ConfinedFolderTests {
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// The folder's real path as the kernel spells it (a `TMPDIR` may itself be a link).
    static func realPath(_ path: String) throws -> [UInt8] {
        let folder = try ConfinedFolder(path: path)
        return folder.realPath
    }

    @Test func aFileInsideIsReadAndALinkThatStaysInsideIsFollowed() throws {
        let temporary = try TemporaryFolder()
        try temporary.write("tick", to: "sounds/tick.wav")
        try #require(symlink("sounds/tick.wav", temporary.path + "/alias.wav") == 0)
        let folder = try ConfinedFolder(path: temporary.path)
        #expect(try folder.readContents(ofFile: "sounds/tick.wav", maximumSize: 4) == Self.bytes("tick"))
        let direct = try folder.locate("sounds/tick.wav")
        let alias = try folder.locate("alias.wav")
        #expect(alias.path == direct.path)
        #expect(direct.path == folder.realPath + Self.bytes("/sounds/tick.wav"))
        #expect(try alias.readContents(maximumSize: 4) == Self.bytes("tick"))
    }

    @Test func aLinkLeadingOutIsRefusedWithWhereItLed() throws {
        let outside = try TemporaryFolder()
        try outside.write("secret", to: "secret.wav")
        let temporary = try TemporaryFolder()
        try #require(symlink(outside.path + "/secret.wav", temporary.path + "/link.wav") == 0)
        try #require(symlink("..", temporary.path + "/up") == 0)
        let folder = try ConfinedFolder(path: temporary.path)
        let secret = try Self.realPath(outside.path) + Self.bytes("/secret.wav")
        #expect(throws: FileReadError.outsideFolder(path: secret)) { _ = try folder.locate("link.wav") }
        #expect(FileReadError.outsideFolder(path: Self.bytes("/x/\u{1B}]0;y")).description
            == #"the file is outside the folder, at /x/\u{1B}]0;y"#)
        // Whatever the name looks like: an absolute path, a climb, a link to the parent.
        #expect(throws: FileReadError.outsideFolder(path: secret)) { _ = try folder.locate(outside.path + "/secret.wav") }
        let sibling = String(outside.path.split(separator: "/").last!)
        #expect(throws: FileReadError.outsideFolder(path: secret)) { _ = try folder.locate("up/" + sibling + "/secret.wav") }
        #expect(throws: FileReadError.outsideFolder(path: try Self.realPath(temporary.path + "/.."))) { _ = try folder.locate("up") }
    }

    @Test func aLookAlikeSiblingFolderReachedByALinkIsRefused() throws {
        let parent = try TemporaryFolder()
        let composed = "caf\u{E9}"          // é as one scalar (NFC)
        let decomposed = "cafe\u{301}"      // e + combining acute (NFD)
        // Swift's String == compares canonical equivalence: the two names are "equal"…
        #expect(composed == decomposed)
        // …but they are two folders on disk.
        try parent.write("inside", to: composed + "/hit.wav")
        try parent.write("outside", to: decomposed + "/hit.wav")
        try #require(symlink("../" + decomposed + "/hit.wav", parent.path + "/" + composed + "/link.wav") == 0)
        let folder = try ConfinedFolder(path: parent.path + "/" + composed)
        #expect(try folder.readContents(ofFile: "hit.wav", maximumSize: 10) == Self.bytes("inside"))
        #expect(throws: FileReadError.outsideFolder(path: try Self.realPath(parent.path) + Self.bytes("/" + decomposed + "/hit.wav"))) {
            try folder.readContents(ofFile: "link.wav", maximumSize: 10)
        }
    }

    @Test func aFIFOIsRefusedAtOnceWithoutBeingOpened() throws {
        let temporary = try TemporaryFolder()
        try #require(mkfifo(temporary.path + "/pipe.wav", 0o600) == 0)
        let folder = try ConfinedFolder(path: temporary.path)
        // O_PATH names the FIFO without opening it: nobody is waited for, nothing is read.
        #expect(throws: FileReadError.notRegularFile) { try folder.readContents(ofFile: "pipe.wav", maximumSize: 10) }
        try temporary.write("x", to: "sub/x")
        #expect(throws: FileReadError.notRegularFile) { _ = try folder.locate("sub") }
    }

    @Test func aHugeFileIsRefusedBeforeAnythingIsRead() throws {
        let temporary = try TemporaryFolder()
        try temporary.write("", to: "huge.wav")
        // 1 GiB without a block on disk: a sparse file.
        try #require(truncate(temporary.path + "/huge.wav", 1 << 30) == 0)
        let folder = try ConfinedFolder(path: temporary.path)
        #expect(throws: FileReadError.tooLarge(size: 1 << 30, limit: 16 << 20)) {
            try folder.readContents(ofFile: "huge.wav", maximumSize: 16 << 20)
        }
    }

    @Test func aMissingFileIsTheErrnoOfTheLookUp() throws {
        let temporary = try TemporaryFolder()
        let folder = try ConfinedFolder(path: temporary.path)
        let missing = FileReadError.systemCall(SystemCallError(call: "openat", errno: .noSuchFileOrDirectory))
        #expect(throws: missing) { _ = try folder.locate("gone.wav") }
        #expect(missing.description == "cannot open the file: No such file or directory")
    }

    @Test func swappingTheNameAfterTheLookUpChangesNothing() throws {
        let outside = try TemporaryFolder()
        try outside.write("secret", to: "secret.wav")
        let temporary = try TemporaryFolder()
        try temporary.write("inside", to: "hit.wav")
        let folder = try ConfinedFolder(path: temporary.path)
        let file = try folder.locate("hit.wav")
        // The name now leads out of the folder; the file found is still the one read.
        try #require(unlink(temporary.path + "/hit.wav") == 0)
        try #require(symlink(outside.path + "/secret.wav", temporary.path + "/hit.wav") == 0)
        #expect(try file.readContents(maximumSize: 10) == Self.bytes("inside"))
        // A later look-up sees the link, and refuses it.
        #expect(throws: FileReadError.self) { _ = try folder.locate("hit.wav") }
    }

    #if DEBUG
    @Test func aSwapBetweenTheLookUpAndTheCheckIsHarmless() throws {
        let outside = try TemporaryFolder()
        try outside.write("secret", to: "secret.wav")
        let temporary = try TemporaryFolder()
        try temporary.write("inside", to: "hit.wav")
        let folder = try ConfinedFolder(path: temporary.path)
        let name = temporary.path + "/hit.wav"
        let target = outside.path + "/secret.wav"
        let driver = SystemCallMocking.Driver()
        // Right after the name is resolved and before the kernel is asked where it led, the name is
        // swapped for a link out: the check and the read both concern the file that was found.
        driver.perform(before: "readlink") {
            _ = unlink(name)
            _ = symlink(target, name)
        }
        let bytes = try SystemCallMocking.withDriver(driver) {
            try folder.readContents(ofFile: "hit.wav", maximumSize: 10)
        }
        #expect(bytes == Self.bytes("inside"))
        // Resolved once, checked and read through descriptors: the name is never looked at again.
        #expect(driver.records.map(\.call) == ["openat", "readlink", "fstat", "open", "fstat", "read", "read", "close", "close"])
    }
    #endif

    @Test func insideMeansThePathThenASlashByteForByte() throws {
        let temporary = try TemporaryFolder()
        try temporary.write("x", to: "a/x")
        let folder = try ConfinedFolder(path: temporary.path + "/a")
        let real = folder.realPath
        // (`#expect` cannot capture a noncopyable folder: the answers are taken first.)
        let answers = [
            folder.contains(real + Self.bytes("/x")),
            folder.contains(real), folder.contains(real + Self.bytes("/")),
            folder.contains(real + Self.bytes("b/x")), folder.contains(Array(real.dropLast()) + Self.bytes("/x")),
        ]
        #expect(answers == [true, false, false, false, false])
        let root = try ConfinedFolder(path: "/")
        let rootPath = root.realPath
        let rootAnswers = [root.contains(Self.bytes("/etc")), root.contains(Self.bytes("/")), root.contains(Self.bytes("pipe:[12]"))]
        #expect(rootPath == Self.bytes("/"))
        #expect(rootAnswers == [true, false, false])
    }

    @Test func theKernelNamesAnOpenDescriptorsFileAsBytes() throws {
        let temporary = try TemporaryFolder()
        try temporary.write("x", to: "f\u{1B}é")
        let folder = try ConfinedFolder(path: temporary.path)
        let descriptor = try FileDescriptor.open(temporary.path + "/f\u{1B}é", .readOnly)
        defer { try? descriptor.close() }
        #expect(try descriptor.path() == folder.realPath + Self.bytes("/f\u{1B}é"))
        var ends: [CInt] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { _ = close(ends[0]); _ = close(ends[1]) }
        #expect(try FileDescriptor(rawValue: ends[0]).path().starts(with: Self.bytes("pipe:[")))
    }
}
