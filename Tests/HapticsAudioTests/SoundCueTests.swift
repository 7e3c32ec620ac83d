import Foundation
import HapticsPatterns
import HapticsSystem
import Testing
@testable import HapticsAudio
import HapticsTestSupport

@Suite struct SoundCueTests {
    /// The repository's `Patterns/` folder.
    let folder = Repository.root + "/Patterns"

    @Test func everyVocabularyItemHasAShortMonoCueAudibleFromItsFirstSample() throws {
        var seen: Set<[Int16]> = []
        for feedback in Feedback.vocabulary {
            let audio = try WAVReader.read(contentsOf: folder + "/" + feedback.soundCueFileName)
            #expect(audio.sampleRate == 48_000, "\(feedback.name)")
            #expect(audio.channelCount == 1, "\(feedback.name)")
            // 30…200 ms at 48 kHz.
            #expect((1_440...9_600).contains(audio.frameCount), "\(feedback.name): \(audio.frameCount) frames")
            let samples = try #require(audio.pcm16Samples, "\(feedback.name) is not 16-bit PCM")
            #expect(abs(Int(samples[0])) > 3_000, "\(feedback.name) starts silent")
            #expect(samples.last == 0, "\(feedback.name) ends with a step")
            seen.insert(samples)
        }
        #expect(seen.count == Feedback.vocabulary.count)
    }

    @Test func theLibraryLoadsEveryCueAndIgnoresImpactIntensity() throws {
        let library = try SoundCueLibrary(folder: folder)
        #expect(library.clips.keys.sorted() == Feedback.vocabulary.map(\.name).sorted())
        let light = try #require(library.voice(for: .impact(.light, intensity: 0.3)))
        #expect(light.frameCount == 1_920)
        #expect(Feedback.notification(.success).soundCueFileName == "notification-success.wav")
    }

    @Test func aMissingCueNamesItsFile() throws {
        let empty = try TemporaryFolder()
        defer { empty.remove() }
        let missing = empty.path + "/notification-success.wav"
        #expect(throws: WAVError(.unreadable(.systemCall(SystemCallError(call: "open", errno: .noSuchFileOrDirectory))),
                                 path: missing)) {
            try SoundCueLibrary(folder: empty.path)
        }
        do {
            _ = try SoundCueLibrary(folder: empty.path)
        } catch {
            #expect(error.description == "\(missing): cannot open the file: No such file or directory")
        }
    }

    @Test func theCuesBuiltIntoTheLibraryAreTheFilesByteForByte() throws {
        for feedback in Feedback.vocabulary {
            let file = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + feedback.soundCueFileName))
            let embedded = try #require(SoundCueLibrary.builtinFile(named: feedback.soundCueFileName))
            #expect(embedded == Array(file), "\(feedback.soundCueFileName) differs; run Tools/generate-sound-cues")
        }
        #expect(SoundCueLibrary.builtin().clips == (try SoundCueLibrary(folder: folder)).clips)
        #expect(SoundCueLibrary.builtin().missingCues.isEmpty)
    }
}
