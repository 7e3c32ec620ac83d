import Foundation
import HapticsPatterns
import HapticsSystem
import Testing
@testable import HapticsAudio
import HapticsTestSupport

@Suite struct AudioPatternLoaderTests {
    func pattern(waveform: String, time: Double = 0.25) -> Pattern {
        Pattern(events: [
            PatternEvent(kind: .hapticTransient, time: 0),
            PatternEvent(kind: .audioCustom, time: time, waveformPath: waveform),
        ])
    }

    func loadError(_ waveform: String, in folder: TemporaryFolder) -> AudioPatternError? {
        do {
            _ = try AudioPatternLoader().load(pattern: pattern(waveform: waveform), patternPath: folder.path + "/hit.ahap")
            return nil
        } catch {
            return error
        }
    }

    @Test func waveformsResolveRelativeToThePatternFolder() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(pcm16WAV([16_384, -16_384]), to: "sounds/hit.wav")
        let loaded = try AudioPatternLoader().load(pattern: pattern(waveform: "sounds/./hit.wav"),
                                                   patternPath: folder.path + "/hit.ahap")
        #expect(loaded.clips.keys.sorted() == [1])
        #expect(loaded.clips[1] == AudioClip(sampleRate: 48_000, channelCount: 1, samples: [0.5, -0.5]))
        // Climbing down and back up inside the folder is fine.
        let again = try AudioPatternLoader().load(pattern: pattern(waveform: "sounds/../sounds/hit.wav"),
                                                  patternPath: folder.path + "/hit.ahap")
        #expect(again.clips[1] == loaded.clips[1])
    }

    @Test func aPathClimbingOutOfTheFolderIsRefusedBeforeAnyRead() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(pcm16WAV([1]), to: "inner/x.wav")
        let patternPath = folder.path + "/inner/hit.ahap"
        #expect(throws: AudioPatternError(patternFile: patternPath, eventIndex: 1, eventTime: 0.25,
                                          waveformPath: "../inner/x.wav", problem: .escapesFolder)) {
            try AudioPatternLoader().load(pattern: pattern(waveform: "../inner/x.wav"), patternPath: patternPath)
        }
        let error = AudioPatternError(patternFile: "sounds/hit.ahap", eventIndex: 1, eventTime: 0.25,
                                      waveformPath: "../x.wav", problem: .escapesFolder)
        #expect(error.description
            == "sounds/hit.ahap: AudioCustom event at 0.25 s (events[1]): EventWaveformPath \"../x.wav\" leaves the pattern's folder")
    }

    @Test func anAbsolutePathIsRefused() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(pcm16WAV([1]), to: "x.wav")
        let error = try #require(loadError(folder.path + "/x.wav", in: folder))
        #expect(error.problem == .absolutePath)
        #expect(error.description == "\(folder.path)/hit.ahap: AudioCustom event at 0.25 s (events[1]): "
            + "EventWaveformPath \"\(folder.path)/x.wav\" is absolute; name the file relative to the pattern's folder")
    }

    @Test func aSymbolicLinkLeadingOutOfTheFolderIsRefused() throws {
        let outside = try TemporaryFolder()
        defer { outside.remove() }
        try outside.write(pcm16WAV([1]), to: "secret.wav")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/link.wav",
                                                   withDestinationPath: outside.path + "/secret.wav")
        let realOutside = URL(fileURLWithPath: outside.path).resolvingSymlinksInPath().path
        let error = try #require(loadError("link.wav", in: folder))
        #expect(error.problem == .symbolicLinkEscapes(resolved: realOutside + "/secret.wav"))
        // A link that stays inside is followed.
        try folder.write(pcm16WAV([1]), to: "real.wav")
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/alias.wav", withDestinationPath: "real.wav")
        #expect(loadError("alias.wav", in: folder) == nil)
    }

    @Test func aMissingWaveformIsALocatedErrorAtLoadTime() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let error = try #require(loadError("gone.wav", in: folder))
        #expect(error == AudioPatternError(patternFile: folder.path + "/hit.ahap", eventIndex: 1, eventTime: 0.25,
                                           waveformPath: "gone.wav", problem: .missing))
        #expect(error.description
            == "\(folder.path)/hit.ahap: AudioCustom event at 0.25 s (events[1]): EventWaveformPath \"gone.wav\": no such file")
    }

    @Test func aBadWaveformIsLocatedAtTheEventToo() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(wavBytes(formatTag: 2, channels: 1, sampleRate: 8_000, bits: 4, data: []), to: "adpcm.wav")
        try folder.write("not audio", to: "text.wav")
        #expect(loadError("adpcm.wav", in: folder)?.problem
            == .invalidWAV(.unsupportedSampleFormat(formatTag: 2, bitsPerSample: 4, offset: 12)))
        #expect(loadError("text.wav", in: folder)?.description
            == "\(folder.path)/hit.ahap: AudioCustom event at 0.25 s (events[1]): EventWaveformPath \"text.wav\": "
            + "not a WAV file: expected \"RIFF\" and \"WAVE\" in the first 12 bytes")
        let truncated = Array("RIFF\0\0\0\0WAVEdata".utf8) + [100, 0, 0, 0, 1, 2]
        try folder.write(truncated, to: "short.wav")
        #expect(loadError("short.wav", in: folder)?.description
            == "\(folder.path)/hit.ahap: AudioCustom event at 0.25 s (events[1]): EventWaveformPath \"short.wav\": "
            + "WAV chunk \"data\" at byte 12 declares 100 bytes but only 2 remain")
        try FileManager.default.createDirectory(atPath: folder.path + "/folder.wav", withIntermediateDirectories: false)
        #expect(loadError("folder.wav", in: folder)?.problem == .notRegularFile)
        #expect(loadError("folder.wav", in: folder)?.description
            == "\(folder.path)/hit.ahap: AudioCustom event at 0.25 s (events[1]): EventWaveformPath \"folder.wav\" is not a regular file")
    }

    @Test func aWaveformLargerThanTheLimitIsRefused() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(pcm16WAV([1, 2]), to: "big.wav")   // 48 bytes
        #expect(AudioPatternLoader().maximumWaveformSize == 16 << 20)
        let loader = AudioPatternLoader(maximumWaveformSize: 47)
        do {
            _ = try loader.load(pattern: pattern(waveform: "big.wav"), patternPath: folder.path + "/hit.ahap")
            Issue.record("a file over the limit was read")
        } catch {
            #expect(error.problem == .tooLarge(size: 48, limit: 47))
            #expect(error.description == "\(folder.path)/hit.ahap: AudioCustom event at 0.25 s (events[1]): "
                + "EventWaveformPath \"big.wav\" is 48 bytes, more than the limit of 47 bytes")
        }
        #expect(try AudioPatternLoader(maximumWaveformSize: 48)
            .load(pattern: pattern(waveform: "big.wav"), patternPath: folder.path + "/hit.ahap").clips.count == 1)
    }

    #if DEBUG
    @Test func aWaveformIsLookedUpOnceAndCheckedAndReadOnDescriptors() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(pcm16WAV([1, 2]), to: "tick.wav")
        let driver = SystemCallMocking.Driver()
        try SystemCallMocking.withDriver(driver) {
            _ = try AudioPatternLoader().load(pattern: pattern(waveform: "tick.wav"), patternPath: folder.path + "/hit.ahap")
        }
        // The folder is opened and located once; the waveform's name is resolved once (openat, from
        // the folder), located and checked on that descriptor, then opened for reading through it
        // (/proc/self/fd) and checked and read there. No second look by name.
        #expect(driver.records.map(\.call) == [
            "open", "readlink",
            "openat", "readlink", "fstat",
            "open", "fstat", "read", "read", "close",
            "close", "close",
        ])
        #expect(driver.records.filter { $0.call == "openat" }.count == 1)
        let reading = driver.records[6].fileDescriptor
        #expect(driver.records[6...9].allSatisfy { $0.fileDescriptor == reading })
    }

    @Test func aWaveformSwappedForALinkOutIsRefusedOrReadAsItWasFound() throws {
        let outside = try TemporaryFolder()
        try outside.write(pcm16WAV([-1]), to: "secret.wav")
        let folder = try TemporaryFolder()
        try folder.write(pcm16WAV([8_192]), to: "tick.wav")
        let name = folder.path + "/tick.wav"
        let target = outside.path + "/secret.wav"
        let realTarget = URL(fileURLWithPath: target).resolvingSymlinksInPath().path
        @Sendable func swap() {
            _ = unlink(name)
            _ = symlink(target, name)
        }
        // Swapped just before the name is resolved: the link is what the kernel finds, and refuses.
        let before = SystemCallMocking.Driver()
        before.perform(before: "openat", swap)
        let refused = SystemCallMocking.withDriver(before) { loadError("tick.wav", in: folder) }
        #expect(refused?.problem == .symbolicLinkEscapes(resolved: realTarget))
        #expect(refused?.description == "\(folder.path)/hit.ahap: AudioCustom event at 0.25 s (events[1]): "
            + "EventWaveformPath \"tick.wav\" leaves the pattern's folder through a symbolic link (to \(realTarget))")
        // Swapped just after: the file found (inside) is the one checked and read.
        try FileManager.default.removeItem(atPath: name)
        try folder.write(pcm16WAV([8_192]), to: "tick.wav")
        let after = SystemCallMocking.Driver()
        after.perform(before: "readlink", {})      // the folder's own look-up
        after.perform(before: "readlink", swap)
        let loaded = try SystemCallMocking.withDriver(after) {
            try AudioPatternLoader().load(pattern: pattern(waveform: "tick.wav"), patternPath: folder.path + "/hit.ahap")
        }
        #expect(loaded.clips[1]?.samples == [0.25])
    }
    #endif

    @Test func aLinkIntoALookAlikeSiblingFolderIsRefused() throws {
        let parent = try TemporaryFolder()
        let composed = "caf\u{E9}"        // NFC: é as one scalar
        let decomposed = "cafe\u{301}"    // NFD: e + combining acute; == as Swift strings, another folder on disk
        try parent.write(pcm16WAV([1]), to: decomposed + "/other.wav")
        try FileManager.default.createDirectory(atPath: parent.path + "/" + composed, withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: parent.path + "/" + composed + "/hit.wav",
                                                   withDestinationPath: "../" + decomposed + "/other.wav")
        let patternPath = parent.path + "/" + composed + "/hit.ahap"
        let realParent = URL(fileURLWithPath: parent.path).resolvingSymlinksInPath().path
        do {
            _ = try AudioPatternLoader().load(pattern: pattern(waveform: "hit.wav"), patternPath: patternPath)
            Issue.record("a waveform in a look-alike sibling folder was read")
        } catch {
            guard case let .symbolicLinkEscapes(resolved) = error.problem else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(Array(resolved.utf8) == Array((realParent + "/" + decomposed + "/other.wav").utf8))
        }
        // A sibling whose name merely starts with the folder's: the separator marks the boundary.
        try parent.write(pcm16WAV([1]), to: "cafe/other.wav")
        try parent.write(pcm16WAV([1]), to: "caf/x.wav")
        try FileManager.default.createSymbolicLink(atPath: parent.path + "/caf/hit.wav", withDestinationPath: "../cafe/other.wav")
        #expect(throws: AudioPatternError.self) {
            try AudioPatternLoader().load(pattern: pattern(waveform: "hit.wav"), patternPath: parent.path + "/caf/hit.ahap")
        }
    }

    @Test func aFIFONamedAsAWaveformIsRefusedAtOnce() throws {
        let folder = try TemporaryFolder()
        try #require(mkfifo(folder.path + "/pipe.wav", 0o600) == 0)
        // Nobody writes to the FIFO: a blocking open or read would never return.
        let error = try #require(loadError("pipe.wav", in: folder))
        #expect(error.problem == .notRegularFile)
        #expect(error.description == "\(folder.path)/hit.ahap: AudioCustom event at 0.25 s (events[1]): "
            + "EventWaveformPath \"pipe.wav\" is not a regular file")
    }

    @Test func aHugeWaveformIsRefusedBeforeAnythingIsRead() throws {
        let folder = try TemporaryFolder()
        try folder.write(pcm16WAV([1]), to: "huge.wav")
        try #require(truncate(folder.path + "/huge.wav", 1 << 30) == 0)   // sparse: no block on disk
        let error = try #require(loadError("huge.wav", in: folder))
        #expect(error.problem == .tooLarge(size: 1 << 30, limit: 16 << 20))
        #expect(error.description == "\(folder.path)/hit.ahap: AudioCustom event at 0.25 s (events[1]): "
            + "EventWaveformPath \"huge.wav\" is 1073741824 bytes, more than the limit of 16777216 bytes")
    }

    @Test func aWaveformPathAndAChunkIdArePrintedEscaped() throws {
        let folder = try TemporaryFolder()
        let error = try #require(loadError("\u{1B}]0;pwned\u{07}.wav", in: folder))
        #expect(error.problem == .missing)
        #expect(error.waveformPath == "\u{1B}]0;pwned\u{07}.wav")
        #expect(error.description == "\(folder.path)/hit.ahap: AudioCustom event at 0.25 s (events[1]): "
            + #"EventWaveformPath "\u{1B}]0;pwned\u{07}.wav": no such file"#)
        // A chunk id is four bytes of the file: ESC [ 2 J clears a terminal.
        let clearing = Array("RIFF\0\0\0\0WAVE\u{1B}[2J".utf8) + [100, 0, 0, 0, 1, 2]
        try folder.write(clearing, to: "clear.wav")
        #expect(loadError("clear.wav", in: folder)?.description
            == "\(folder.path)/hit.ahap: AudioCustom event at 0.25 s (events[1]): EventWaveformPath \"clear.wav\": "
            + #"WAV chunk "\u{1B}[2J" at byte 12 declares 100 bytes but only 2 remain"#)
        #expect(WAVError(.missingChunk("\u{9B}2J "), path: "a\u{9B}.wav").description == #"a\u{9B}.wav: WAV file has no "\u{9B}2J " chunk"#)
    }

    @Test func aPatternFileIsDecodedThenItsSoundLoaded() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(pcm16WAV([8_192]), to: "tick.wav")
        try folder.write("""
            {"Pattern": [
              {"Event": {"Time": 0.5, "EventType": "AudioCustom", "EventWaveformPath": "tick.wav"}},
              {"Event": {"Time": 0.0, "EventType": "HapticTransient"}}
            ]}
            """, to: "p.ahap")
        let loaded = try AudioPatternLoader().load(contentsOf: folder.path + "/p.ahap")
        #expect(loaded.hasSound)
        #expect(loaded.clips[0]?.samples == [0.25])
        try folder.write("""
            {"Pattern": [{"Event": {"Time": 0.5, "EventType": "AudioCustom", "EventWaveformPath": "nope.wav"}}]}
            """, to: "q.ahap")
        #expect(throws: AudioLoadError.sound(AudioPatternError(
            patternFile: folder.path + "/q.ahap", eventIndex: 0, eventTime: 0.5, waveformPath: "nope.wav", problem: .missing,
            location: SourceLocation(line: 1, column: 87)))) {
            try AudioPatternLoader().load(contentsOf: folder.path + "/q.ahap")
        }
    }
}
