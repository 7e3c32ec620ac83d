import Glibc
import HapticsSystem
import Testing

/// `FileDescriptor.readContents` opens once, checks the open descriptor, and never blocks or reads
/// without bound; `writeContents` replaces a file whole.
@Suite("Reading and writing whole files")
struct FileContentsTests {
    /// A fresh folder under the system's temporary directory, removed by `remove()`.
    struct Folder {
        let path: String
        init() throws {
            var template = Array("/tmp/haptics-system-XXXXXX".utf8CString)
            let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
            try #require(made != nil)
            path = String(cString: made!)
        }
        func file(_ name: String, _ text: String) -> String {
            let file = path + "/" + name
            let descriptor = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            _ = text.utf8CString.dropLast().withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            close(descriptor)
            return file
        }
        func remove(_ names: [String]) {
            for name in names { unlink(path + "/" + name) }
            rmdir(path)
        }
    }

    @Test func aRegularFileIsReadWhole() throws {
        let folder = try Folder()
        defer { folder.remove(["a"]) }
        let file = folder.file("a", "hello")
        #expect(try FileDescriptor.readContents(ofFile: file, maximumSize: 5) == Array("hello".utf8))
    }

    @Test func aFileLargerThanTheLimitIsRefusedBeforeItIsRead() throws {
        let folder = try Folder()
        defer { folder.remove(["a"]) }
        let file = folder.file("a", "hello!")
        #expect(throws: FileReadError.tooLarge(size: 6, limit: 5)) {
            try FileDescriptor.readContents(ofFile: file, maximumSize: 5)
        }
        #expect(FileReadError.tooLarge(size: 6, limit: 5).description
            == "the file is 6 bytes, more than the limit of 5 bytes")
    }

    @Test func aMissingFileSaysWhichCallFailedAndWhy() {
        let error = FileReadError.systemCall(SystemCallError(call: "open", errno: .noSuchFileOrDirectory))
        #expect(throws: error) { try FileDescriptor.readContents(ofFile: "/nonexistent/x", maximumSize: 10) }
        #expect(error.description == "cannot open the file: No such file or directory")
    }

    @Test func aFIFOIsRefusedWithoutWaitingForAWriter() throws {
        let folder = try Folder()
        defer { folder.remove(["fifo"]) }
        try #require(mkfifo(folder.path + "/fifo", 0o644) == 0)
        // A blocking open of a FIFO waits for a writer forever; this returns at once.
        #expect(throws: FileReadError.notRegularFile) {
            try FileDescriptor.readContents(ofFile: folder.path + "/fifo", maximumSize: 10)
        }
    }

    @Test func aFolderIsNotARegularFile() throws {
        let folder = try Folder()
        defer { folder.remove([]) }
        #expect(throws: FileReadError.notRegularFile) {
            try FileDescriptor.readContents(ofFile: folder.path, maximumSize: 10)
        }
    }

    @Test func aSymbolicLinkIsFollowedOnlyWhenAllowed() throws {
        let folder = try Folder()
        defer { folder.remove(["a", "link"]) }
        let file = folder.file("a", "x")
        try #require(symlink(file, folder.path + "/link") == 0)
        #expect(try FileDescriptor.readContents(ofFile: folder.path + "/link", maximumSize: 1) == [UInt8(ascii: "x")])
        #expect(throws: FileReadError.systemCall(SystemCallError(call: "open", errno: .tooManySymbolicLinkLevels))) {
            try FileDescriptor.readContents(ofFile: folder.path + "/link", maximumSize: 1, followingSymbolicLinks: false)
        }
    }

    @Test func writingReplacesTheWholeFileAndLeavesNothingBeside() throws {
        let folder = try Folder()
        defer { folder.remove(["a"]) }
        let file = folder.file("a", "old contents")
        try FileDescriptor.writeContents(Array("new".utf8), toFile: file)
        #expect(try FileDescriptor.readContents(ofFile: file, maximumSize: 100) == Array("new".utf8))
        // Only the file itself is in the folder: the partial file was renamed over it.
        let directory = try #require(opendir(folder.path))
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        #expect(names == ["a"])
    }
}
