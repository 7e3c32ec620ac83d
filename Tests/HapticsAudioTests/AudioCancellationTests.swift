import HapticsScheduler
import Testing
@testable import HapticsAudio
import HapticsSystem
import HapticsTestSupport

@Suite struct AudioCancellationTests {
    let start = MonotonicInstant(nanoseconds: 1_000_000_000)

    /// A voice of `frames` frames at 0.5 on both channels: 16 384 in the WAV file.
    func steady(_ frames: Int) -> AudioVoice {
        AudioVoice(stereoSamples: Array(repeating: 0.5, count: 2 * frames))
    }

    func offlineWAV(_ folder: TemporaryFolder, fadeOutFrames: Int = 240) throws -> (AudioOutput, String) {
        let path = folder.path + "/out.wav"
        let output = AudioOutput(sink: WAVFileSink(path: path, timing: .offline(start: start)),
                                 configuration: AudioOutputConfiguration(fadeOutFrames: fadeOutFrames))
        try output.open()
        return (output, path)
    }

    func render(_ output: AudioOutput, periods: Int, path: String) throws -> [Int16] {
        for _ in 0..<periods { output.process() }
        output.stop()
        let samples = try #require(WAVReader.read(contentsOf: path).pcm16Samples)
        return stride(from: 0, to: samples.count, by: 2).map { samples[$0] }
    }

    @Test func aPlayingVoiceFadesOutFromTheFrameOfItsCancelInstantAndIsSilentAfterTheFade() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (output, path) = try offlineWAV(folder, fadeOutFrames: 4)
        #expect(output.schedule(steady(1_000), audibleAt: start, group: AudioVoiceGroup(rawValue: 7)))
        output.process()                                                                // frames 0..<256 written
        #expect(output.cancel(group: AudioVoiceGroup(rawValue: 7), at: start.advanced(by: 8_333_333)))   // frame 400
        let left = try render(output, periods: 3, path: path)
        // Frame k of a 4-frame fade is at (4 − k) / 5: 0.4, 0.3, 0.2, 0.1 of full scale.
        #expect(Array(left[0..<400]) == Array(repeating: 16_384, count: 400))
        #expect(Array(left[400..<404]) == [13_107, 9_830, 6_553, 3_277])
        #expect(Array(left[404...]) == Array(repeating: 0, count: 1_024 - 404))
        #expect(output.statistics == AudioOutputStatistics(periods: 4, scheduled: 1, cancelled: 1))
    }

    @Test func theDefaultFadeLasts240FramesFallingEveryFrame() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (output, path) = try offlineWAV(folder)
        #expect(output.schedule(steady(2_000), audibleAt: start))
        #expect(output.cancelAll(at: start.advanced(by: 5_000_000)))                  // frame 240
        let left = try render(output, periods: 4, path: path)
        #expect(left.indices.filter { left[$0] != 0 } == Array(0..<480))
        #expect(Array(left[0..<240]) == Array(repeating: 16_384, count: 240))
        #expect(left[240] == 16_316 && left[479] == 68)                           // 0.5 × 240/241, 0.5 × 1/241
        #expect(zip(left[240..<479], left[241..<480]).allSatisfy { $0 > $1 })
    }

    @Test func aCancelForAnInstantAlreadyWrittenFadesFromTheNextPeriod() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (output, path) = try offlineWAV(folder, fadeOutFrames: 4)
        #expect(output.schedule(steady(1_000), audibleAt: start))
        output.process()
        output.process()
        #expect(output.cancelAll())                                                    // as soon as possible
        let left = try render(output, periods: 2, path: path)
        #expect(Array(left[0..<512]) == Array(repeating: 16_384, count: 512))
        #expect(Array(left[512..<516]) == [13_107, 9_830, 6_553, 3_277])
        #expect(left[516...].allSatisfy { $0 == 0 })
    }

    @Test func aPendingVoiceCancelledBeforeItsStartNeverSounds() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (output, path) = try offlineWAV(folder)
        let group = AudioVoiceGroup.unique()
        #expect(output.schedule(steady(100), audibleAt: start.advanced(by: 12_500_000), group: group))   // frame 600
        #expect(output.schedule(steady(100), audibleAt: start.advanced(by: 15_000_000), group: group))   // frame 720
        output.process()
        #expect(output.cancel(group: group, at: start.advanced(by: 12_500_000)))       // at the first one's frame
        let left = try render(output, periods: 3, path: path)
        #expect(left.allSatisfy { $0 == 0 })
        #expect(output.statistics == AudioOutputStatistics(periods: 4, scheduled: 2, cancelled: 2))
    }

    @Test func aCancelReachesOnlyItsGroupAndOnlyVoicesScheduledBeforeIt() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (output, path) = try offlineWAV(folder)
        let player = AudioVoiceGroup.unique()
        let other = AudioVoiceGroup.unique()
        #expect(player != other && player != .ungrouped)
        #expect(output.schedule(steady(10), audibleAt: start.advanced(by: 2_000_000), group: player))   // frame 96
        #expect(output.schedule(steady(10), audibleAt: start.advanced(by: 4_000_000), group: other))    // frame 192
        #expect(output.cancel(group: player, at: start))
        #expect(output.schedule(steady(10), audibleAt: start.advanced(by: 6_000_000), group: player))   // frame 288
        let left = try render(output, periods: 2, path: path)
        #expect(left.indices.filter { left[$0] != 0 } == Array(192..<202) + Array(288..<298))
        #expect(output.statistics == AudioOutputStatistics(periods: 2, scheduled: 3, completed: 2, cancelled: 1))
    }

    @Test func aVoicesGainMultipliesItsSamples() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (output, path) = try offlineWAV(folder)
        let click = AudioVoice(stereoSamples: [0.5, 0.25, -0.5, -0.25])
        #expect(output.schedule(click, audibleAt: start, gain: 0.5))
        #expect(output.schedule(click, audibleAt: start.advanced(by: 1_000_000), gain: 0))
        output.process()
        output.stop()
        let samples = try #require(WAVReader.read(contentsOf: path).pcm16Samples)
        #expect(Array(samples[0..<4]) == [8_192, 4_096, -8_192, -4_096])
        #expect(samples[4...].allSatisfy { $0 == 0 })
    }

    @Test func cancelledVoicesAreReleased() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (output, _) = try offlineWAV(folder)
        weak var released: AudioVoice?
        do {
            let voice = steady(10_000)
            released = voice
            #expect(output.schedule(voice, audibleAt: start))
        }
        output.process()
        #expect(output.cancelAll())
        output.process()
        output.process()
        #expect(released != nil)          // back on the control side, released at the next schedule
        #expect(output.schedule(steady(1), audibleAt: start.advanced(by: 60_000_000_000)))
        #expect(released == nil)
        output.stop()
    }
}
