import Haptics
import HapticsSystem
import HapticsTestSupport
import Testing

@Suite("One version everywhere")
struct VersionTests {
    func text(_ path: String) throws -> String {
        String(decoding: try FileDescriptor.readContents(ofFile: Repository.root + "/" + path, maximumSize: 1 << 20), as: UTF8.self)
    }

    /// The value of `#define name value` in the header.
    func macro(_ name: String, in header: String) -> String? {
        header.split(separator: "\n").first { $0.hasPrefix("#define \(name) ") }
            .map { String($0.dropFirst("#define \(name) ".count)) }
    }

    @Test("the library's version is the header's, and the changelog's newest entry")
    func agree() throws {
        let header = try text("Sources/CHapticsABI/include/haptics/haptics.h")
        let parts = ["MAJOR", "MINOR", "PATCH"].compactMap { macro("HAPTICS_VERSION_\($0)", in: header) }
        #expect(parts.count == 3)
        #expect(HapticsLibrary.version == parts.joined(separator: "."))
        #expect(macro("HAPTICS_VERSION_STRING", in: header) == "\"\(HapticsLibrary.version)\"")
        let newest = try text("CHANGELOG.md").split(separator: "\n").first { $0.hasPrefix("## ") }
        #expect(newest == "## \(HapticsLibrary.version)")
    }

    @Test("the licence is MIT, in LICENSE and the header")
    func license() throws {
        #expect(HapticsLibrary.license == "MIT")
        #expect(try text("LICENSE").hasPrefix("MIT License\n\nCopyright (c) 2026 The Haptics authors\n"))
        #expect(try text("Sources/CHapticsABI/include/haptics/haptics.h").contains("\n * SPDX-License-Identifier: MIT\n"))
    }
}
