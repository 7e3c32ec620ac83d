import Foundation
import HapticsPatterns
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
            #expect((30_000_000...200_000_000).contains(audio.duration), "\(feedback.name): \(audio.duration) ns")
            #expect(abs(Int(audio.samples[0])) > 3_000, "\(feedback.name) starts silent")
            #expect(audio.samples.last == 0, "\(feedback.name) ends with a step")
            seen.insert(audio.samples)
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
        #expect(throws: WAVFileError.self) { try SoundCueLibrary(folder: empty.path) }
        do {
            _ = try SoundCueLibrary(folder: empty.path)
        } catch {
            #expect(error.path == empty.path + "/notification-success.wav")
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
