import Glibc
import HapticsSystem
import HapticsTestSupport
import Testing

/// The test-support folder every suite writes its files into: it must never be shared, and removing
/// it must take everything in it and nothing outside it.
@Suite struct TemporaryFolderTests {
    static func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    static func contents(_ path: String) throws -> String {
        String(decoding: try FileDescriptor.readContents(ofFile: path, maximumSize: 1024), as: UTF8.self)
    }

    @Test func everyFolderIsNewEmptyAndOnlyItsUserMayEnterIt() throws {
        let first = try TemporaryFolder(prefix: "haptics-folder-test")
        let second = try TemporaryFolder(prefix: "haptics-folder-test")
        defer { first.remove(); second.remove() }
        #expect(first.path != second.path)
        let parent = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        #expect(first.path.hasPrefix(parent + (parent.hasSuffix("/") ? "" : "/") + "haptics-folder-test."))
        var status = stat()
        #expect(stat(first.path, &status) == 0)
        #expect(status.st_mode & S_IFMT == S_IFDIR)
        #expect(status.st_mode & 0o777 == 0o700)
        let folder = try #require(opendir(first.path))
        defer { closedir(folder) }
        var names: [String] = []
        while let entry = readdir(folder) {
            names.append(withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) })
        }
        #expect(names.sorted() == [".", ".."])
    }

    @Test func writingCreatesTheFoldersOnTheWayAndReplacesAnExistingFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("one", to: "a/b/c.txt")
        try folder.write("two", to: "a/b/c.txt")
        try folder.write([0x74, 0x68, 0x72, 0x65, 0x65], to: "a/d.txt")
        try folder.write([], to: "empty")
        #expect(try Self.contents(folder.path + "/a/b/c.txt") == "two")
        #expect(try Self.contents(folder.path + "/a/d.txt") == "three")
        #expect(try Self.contents(folder.path + "/empty") == "")
    }

    @Test func removingTakesEverythingInsideAndFollowsNoLink() throws {
        let outside = try TemporaryFolder()
        defer { outside.remove() }
        try outside.write("kept", to: "kept.txt")
        let folder = try TemporaryFolder()
        try folder.write("x", to: "nested/deeper/file.txt")
        #expect(symlink(outside.path, folder.path + "/nested/to-a-folder") == 0)
        #expect(symlink(outside.path + "/kept.txt", folder.path + "/to-a-file") == 0)
        #expect(symlink("/nonexistent", folder.path + "/dangling") == 0)

        folder.remove()
        #expect(!Self.exists(folder.path))
        #expect(try Self.contents(outside.path + "/kept.txt") == "kept")
        folder.remove()  // Gone already: nothing happens.
        #expect(!Self.exists(folder.path))
    }

    @Test func theFolderIsRemovedWhenTheLastReferenceGoesAway() throws {
        var path = ""
        do {
            let folder = try TemporaryFolder()
            path = folder.path
            try folder.write("x", to: "inner/file")
            #expect(Self.exists(path + "/inner/file"))
        }
        #expect(!path.isEmpty)
        #expect(!Self.exists(path))
    }
}
