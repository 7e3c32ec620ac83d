import Glibc
import HapticsAudio
@testable import HapticsFuzzing
import HapticsSystem
import HapticsTestSupport
import Testing

@Suite struct FuzzBundleTests {
    @Test func aBundleSplitsIntoItsPatternFilesAndLinks() {
        let bundle = FuzzBundle(pattern: Array("{}".utf8), entries: [
            .init(name: "sounds/hit.wav", content: .file([1, 2, 10, 3])),
            .init(name: "alias.wav", content: .symbolicLink(to: "sounds/hit.wav")),
            .init(name: "empty.wav", content: .file([])),
        ])
        #expect(FuzzBundle(splitting: bundle.bytes) == bundle)
        #expect(FuzzBundle(splitting: Array("{}".utf8)) == FuzzBundle(pattern: Array("{}".utf8)))
    }

    @Test func namesThatCouldLeaveTheFolderAreReplacedByTheEntrysIndex() {
        let input = Array("p\n--- ../up.wav\nA\n--- /abs.wav\nB\n--- a/./b\nC\n--- a/b/c/d\nD\n--- ok-1_.WAV\nE".utf8)
        let names = FuzzBundle(splitting: input).entries.map(\.name)
        #expect(names == ["file0.wav", "file1.wav", "file2.wav", "file3.wav", "ok-1_.WAV"])
    }

    @Test func entriesBeyondTheLimitAreDropped() {
        let input = Array("p".utf8) + (0..<20).flatMap { Array("\n--- f\($0)\nx".utf8) }
        #expect(FuzzBundle(splitting: input).entries.count == FuzzBundle.maximumEntryCount)
    }

    @Test func writingCreatesOnlyInsideTheFolderAndRemovingLeavesItEmpty() throws {
        let folder = try TemporaryFolder(prefix: "haptics-fuzz-tests")
        let bundle = FuzzBundle(pattern: Array("{}".utf8), entries: [
            .init(name: "link", content: .symbolicLink(to: "..")),
            .init(name: "link/escape.wav", content: .file([1])),     // through a link: left out
            .init(name: "d/x.wav", content: .file([2])),
            .init(name: "d", content: .file([3])),                   // a folder already: left out
            .init(name: "d/x.wav", content: .file([4])),             // taken: left out
        ])
        let written = bundle.write(into: folder.path)
        #expect(written.patternPath == folder.path + "/pattern.ahap")
        #expect(try FileDescriptor.readContents(ofFile: folder.path + "/d/x.wav", maximumSize: 8) == [2])
        #expect(throws: (any Error).self) { try FileDescriptor.readContents(ofFile: folder.path + "/../escape.wav", maximumSize: 8) }
        written.remove()
        #expect(entries(of: folder.path).isEmpty)
    }

    @Test func aWaveformReadFromTheSentinelIsRecognised() throws {
        // Loaded from a pattern beside it (inside that pattern's folder, so allowed), the sentinel
        // gives the clip the bundle target refuses to see from a pattern in the folder below.
        let folder = try TemporaryFolder(prefix: "haptics-fuzz-tests")
        try folder.write(FuzzTarget.sentinelWAV, to: FuzzTarget.sentinelName)
        try folder.write(#"{"Pattern":[{"Event":{"Time":0,"EventType":"AudioCustom","EventWaveformPath":"outside.wav"}}]}"#,
                         to: "beside.ahap")
        let audio = try AudioPatternLoader().load(contentsOf: folder.path + "/beside.ahap")
        #expect(audio.clips[0] == FuzzTarget.sentinelClip)
    }

    @Test func theLinkSeedsReachWhatTheyAreMeantTo() throws {
        let folder = try TemporaryFolder(prefix: "haptics-fuzz-tests")
        let seeds = FuzzTarget.bundle.seeds(repository: Repository.root)
        func load(_ name: String) throws -> AudioPattern {
            let seed = try #require(seeds.first { $0.name == "Tests/FuzzSeeds/bundle/" + name })
            let written = FuzzBundle(splitting: seed.bytes).write(into: folder.path)
            defer { written.remove() }
            return try AudioPatternLoader().load(contentsOf: written.patternPath)
        }
        #expect(try load("link-inside-the-folder.bundle").clips.count == 2)
        #expect(throws: AudioLoadError.self) { try load("link-out-of-the-folder.bundle") }
        #expect(throws: AudioLoadError.self) { try load("path-out-of-the-folder.bundle") }
        #expect(try load("knock-with-haptic.ahap").clips.count == 1)
    }
}
