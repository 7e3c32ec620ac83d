import Foundation
import HapticsScheduler
import Testing
@testable import HapticsAudio
import HapticsSystem
import HapticsTestSupport

/// A device that plays a few periods, then fails the way a real one does (unplugged, or run dry).
final class FailingSink: AudioSink, @unchecked Sendable {
    let format = AudioStreamFormat(periodFrames: 64)
    let failure: AudioSinkWrite.Status
    let failAt: Int
    var writes = 0

    init(failure: AudioSinkWrite.Status, failAt: Int) {
        self.failure = failure
        self.failAt = failAt
    }

    func open() throws(AudioSinkError) -> AudioTimestamp? {
        AudioTimestamp(framesWritten: 0, delayFrames: 0, instant: .init(nanoseconds: 0))
    }

    func write(_ frames: UnsafePointer<Float>) -> AudioSinkWrite {
        writes += 1
        let written = AudioTimestamp(framesWritten: Int64(writes * 64), delayFrames: 128,
                                     instant: .init(nanoseconds: Int64(writes) * 4_000_000))
        return AudioSinkWrite(status: writes == failAt ? failure : .written, timestamp: writes == failAt ? nil : written)
    }

    func close() {}
}

/// A device whose stream, from write `jumpAt` on, is `jumpFrames` later than before, without an
/// underrun (its pointer wrapped unseen during a stall); it keeps what it is given (left channel).
final class JumpingSink: AudioSink, @unchecked Sendable {
    let format = AudioStreamFormat(sampleRate: 48_000, periodFrames: 64, periodCount: 4)
    let jumpAt: Int
    let jumpFrames: Int64
    private(set) var left: [Float] = []
    private var writes = 0

    init(jumpAt: Int, jumpFrames: Int64) {
        self.jumpAt = jumpAt
        self.jumpFrames = jumpFrames
    }

    func open() throws(AudioSinkError) -> AudioTimestamp? { nil }

    func write(_ frames: UnsafePointer<Float>) -> AudioSinkWrite {
        writes += 1
        for frame in 0..<format.periodFrames { left.append(frames[2 * frame]) }
        // Two periods queued; position 0 audible at 0, or `jumpFrames` later after the jump.
        let written = Int64(writes * format.periodFrames)
        let origin = writes >= jumpAt ? jumpFrames : 0
        let instant = format.nanoseconds(frames: origin + written - 128)
        return AudioSinkWrite(status: .written, timestamp: AudioTimestamp(framesWritten: written, delayFrames: 128,
                                                                          instant: .init(nanoseconds: instant)))
    }

    func close() {}
}

/// A sink whose first reading is lag-free and every later one lags by `lagFrames`: the estimate
/// (the earliest origin of the last 16 readings) moves `lagFrames` later once the first reading
/// leaves the window, after write 17.
final class LaggingSink: AudioSink, @unchecked Sendable {
    let format = AudioStreamFormat(sampleRate: 48_000, periodFrames: 64, periodCount: 4)
    let lagFrames: Int64
    private(set) var left: [Float] = []
    private var writes = 0

    init(lagFrames: Int64) { self.lagFrames = lagFrames }

    func open() throws(AudioSinkError) -> AudioTimestamp? { nil }

    func write(_ frames: UnsafePointer<Float>) -> AudioSinkWrite {
        writes += 1
        for frame in 0..<format.periodFrames { left.append(frames[2 * frame]) }
        let written = Int64(writes * format.periodFrames)
        let instant = format.nanoseconds(frames: (writes == 1 ? 0 : lagFrames) + written - 128)
        return AudioSinkWrite(status: .written, timestamp: AudioTimestamp(framesWritten: written, delayFrames: 128,
                                                                          instant: .init(nanoseconds: instant)))
    }

    func close() {}
}

@Suite struct AudioOutputTests {
    let start = MonotonicInstant(nanoseconds: 1_000_000_000)
    let click = AudioVoice(stereoSamples: [0.5, 0.25, -0.5, -0.25])

    func offlineWAV(_ folder: TemporaryFolder, configuration: AudioOutputConfiguration = AudioOutputConfiguration())
        throws -> (AudioOutput, String) {
        let path = folder.path + "/out.wav"
        let output = AudioOutput(sink: WAVFileSink(path: path, timing: .offline(start: start)), configuration: configuration)
        try output.open()
        return (output, path)
    }

    @Test func aVoiceLandsInTheWAVFileAtTheExactFrameOfItsInstant() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (output, path) = try offlineWAV(folder)
        #expect(output.schedule(click, audibleAt: start.advanced(by: 12_500_000)))     // frame 600
        #expect(output.schedule(click, audibleAt: start.advanced(by: 20_000_000)))     // frame 960
        for _ in 0..<4 { #expect(output.process()) }
        output.stop()
        let audio = try WAVReader.read(contentsOf: path)
        #expect(audio.channelCount == 2)
        #expect(audio.frameCount == 1_024)
        var expected = [Int16](repeating: 0, count: 2 * 1_024)
        for frame in [600, 960] {
            expected.replaceSubrange(2 * frame..<2 * frame + 4, with: [16_384, 8_192, -16_384, -8_192])
        }
        #expect(audio.pcm16Samples == expected)
        #expect(output.latency == .zero)
        #expect(output.minimumLeadTime == .nanoseconds(5_333_333))          // one 256-frame period
        #expect(output.statistics == AudioOutputStatistics(periods: 4, scheduled: 2, completed: 2))
    }

    @Test func aPatternsVoicesKeepTheirOffsetsFromThePatternStart() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (output, path) = try offlineWAV(folder)
        let voices = [
            ScheduledVoice(eventIndex: 0, frameOffset: 0, timeOffset: .zero, voice: click),
            ScheduledVoice(eventIndex: 3, frameOffset: 240, timeOffset: .milliseconds(5), voice: click),
        ]
        #expect(output.schedule(voices, patternStart: start.advanced(by: 1_000_000)) == 2)   // frames 48 and 288
        output.process()
        output.process()
        output.stop()
        let samples = try #require(WAVReader.read(contentsOf: path).pcm16Samples)
        #expect(samples.indices.filter { samples[$0] != 0 } == [96, 97, 98, 99, 576, 577, 578, 579])
    }

    @Test func aVoiceAskedTooLatePlaysAtOnceFromItsStartAndIsCountedLate() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (output, path) = try offlineWAV(folder)
        output.process()
        output.process()
        #expect(output.schedule(click, audibleAt: start.advanced(by: 1_000_000)))      // frame 48, already written
        output.process()
        output.stop()
        let samples = try #require(WAVReader.read(contentsOf: path).pcm16Samples)
        #expect(samples.indices.filter { samples[$0] != 0 } == [1_024, 1_025, 1_026, 1_027])
        #expect(output.drainEvents() == [.voiceLate(lateness: .nanoseconds(9_666_666))])          // (512 − 48) frames
        #expect(output.statistics.late == 1)
        #expect(output.statistics.maximumLateness == .nanoseconds(9_666_666))
    }

    @Test func mutedVoicesKeepTheirTimeSilently() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (output, path) = try offlineWAV(folder)
        output.isMuted = true
        #expect(output.schedule(AudioVoice(stereoSamples: Array(repeating: 1, count: 1_000)), audibleAt: start))
        output.process()
        output.isMuted = false
        output.process()
        output.process()
        output.stop()
        let samples = try #require(WAVReader.read(contentsOf: path).pcm16Samples)
        // 500 frames from frame 0: the first 256 were muted, the rest plays where it belongs.
        #expect(samples.indices.filter { samples[$0] != 0 } == Array(512..<1_000))
        #expect(output.statistics.completed == 1)
    }

    @Test func aVoiceWithoutASlotIsRefusedAtOnceNeverAcceptedAndLetGo() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (output, _) = try offlineWAV(folder, configuration: AudioOutputConfiguration(queueCapacity: 4, maximumVoices: 1))
        try output.enqueue(click, audibleAt: start)
        // The slot is held by the voice queued, though it has not begun.
        #expect(throws: AudioVoiceRefusal.noVoiceSlot) { try output.enqueue(click, audibleAt: start) }
        #expect(!output.schedule(click, audibleAt: start))
        output.process()    // the click plays its 2 frames and is handed back
        // Released by this call first: the slot is free again.
        try output.enqueue(click, audibleAt: start.advanced(by: 10_000_000))
        output.stop()
        #expect(output.statistics == AudioOutputStatistics(
            periods: 1, scheduled: 2, dropped: 2, noVoiceSlot: 2, completed: 1, cancelled: 0,
            realtimeThread: nil))
        // Nothing accepted was let go later: no event.
        #expect(output.drainEvents() == [])
    }

    @Test func aFullQueueRefusesInsteadOfWaiting() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (output, _) = try offlineWAV(folder, configuration: AudioOutputConfiguration(queueCapacity: 2, maximumVoices: 8))
        try output.enqueue(click, audibleAt: start)
        try output.enqueue(click, audibleAt: start)
        #expect(throws: AudioVoiceRefusal.queueFull) { try output.enqueue(click, audibleAt: start) }
        output.process()
        output.stop()
        let statistics = output.statistics
        #expect(statistics.scheduled == 2)
        #expect(statistics.dropped == 1)
        #expect(statistics.noVoiceSlot == 0)
        #expect(statistics.completed == 2)
    }

    @Test func stoppingReleasesEveryVoiceItHeld() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (output, _) = try offlineWAV(folder)
        weak var queued: AudioVoice?
        weak var playing: AudioVoice?
        do {
            let first = AudioVoice(stereoSamples: Array(repeating: 0.1, count: 10_000))
            let second = AudioVoice(stereoSamples: [0.1, 0.1])
            queued = second
            playing = first
            #expect(output.schedule(first, audibleAt: start))
            output.process()
            #expect(output.schedule(second, audibleAt: start.advanced(by: 60_000_000_000)))
        }
        #expect(queued != nil && playing != nil)
        output.stop()
        #expect(queued == nil)
        #expect(playing == nil)
    }

    @Test func aLostDeviceIsATypedEventAndLaterVoicesAreRefused() {
        let sink = FailingSink(failure: .deviceLost(errno: .operationNotSupportedByDevice), failAt: 3)
        let output = AudioOutput(sink: sink)
        #expect(throws: Never.self) { try output.open() }
        #expect(output.process())
        #expect(output.process())
        #expect(!output.process())
        #expect(!output.process())
        #expect(sink.writes == 3)
        #expect(output.isDeviceLost)
        #expect(output.drainEvents() == [.deviceLost(errno: .operationNotSupportedByDevice)])
        #expect(!output.schedule(click, audibleAt: start))
        #expect(output.statistics.dropped == 1)
    }

    @Test func anUnderrunIsRecoveredCountedAndRestartsTheTiming() {
        let sink = FailingSink(failure: .recoveredUnderrun, failAt: 2)
        let output = AudioOutput(sink: sink)
        #expect(throws: Never.self) { try output.open() }
        #expect(output.process())
        #expect(output.process())
        #expect(output.statistics.underruns == 1)
        #expect(output.audibleInstant(ofFrame: 0) == nil)
        #expect(output.drainEvents().count == 1)
        #expect(output.process())
        // The next reading: 192 written, 128 not yet heard at 12 ms → position 0 was audible 64 frames earlier.
        #expect(output.audibleInstant(ofFrame: 0) == MonotonicInstant(nanoseconds: 10_666_667))
        // Latency: 0 at open, then the 128-frame delay (2.67 ms) twice, smoothed by 1/8 each time.
        #expect(output.latency == .nanoseconds(624_999))
    }

    @Test func theTimingIsTheEarliestOriginOfRecentReadings() {
        let format = AudioStreamFormat(sampleRate: 48_000, periodFrames: 48)
        var clock = _StreamClock(format: format, window: 3)
        // Position 0 audible at 1 ms, read with pointer lags of 0.5, 0, 0.25, 0.75 and 0.5 ms.
        for (written, lag) in [(48, 500_000), (96, 0), (144, 250_000), (192, 750_000), (240, 500_000)]
            as [(Int64, Int64)] {
            let instant = Int64(1_000_000) + format.nanoseconds(frames: written - 48) + lag
            clock.observe(AudioTimestamp(framesWritten: written, delayFrames: 48, instant: .init(nanoseconds: instant)))
        }
        #expect(clock.origin == 1_250_000)      // the lag-free reading fell out of the 3-reading window
        #expect(clock.latency == 1_000_000)
    }

    @Test func aPositionThatJumpsLaterWithoutAnUnderrunRestartsTheTimingAtOnce() {
        // A stall longer than the device buffer: the kernel sees the pointer only modulo the
        // buffer, reports no underrun, and from write 20 on the stream is one buffer (256 frames,
        // 5.33 ms) later than before. A voice due 24 periods in must start at the frame the new
        // readings put at its instant — not 256 frames later, where the earlier readings still in
        // the 16-reading window would put it.
        let sink = JumpingSink(jumpAt: 20, jumpFrames: 256)
        let output = AudioOutput(sink: sink)
        #expect(throws: Never.self) { try output.open() }
        let voice = AudioVoice(stereoSamples: [1, 1])
        let audibleAt = MonotonicInstant(nanoseconds: sink.format.nanoseconds(frames: 256 + 1_560))
        for period in 0..<30 {
            if period == 22 { #expect(output.schedule(voice, audibleAt: audibleAt)) }
            #expect(output.process())
        }
        #expect(sink.left.firstIndex(of: 1) == 1_560)
        #expect(output.statistics.timingJumps == 1)
        #expect(output.statistics.late == 0)
        #expect(output.audibleInstant(ofFrame: 0) == MonotonicInstant(nanoseconds: sink.format.nanoseconds(frames: 256)))
    }

    @Test func aVoiceIsPlacedAPeriodAheadSoThatTheEstimateMovingLaterCannotMakeItLate() {
        // The voice's frame is 1 089, one frame into the 18th period (1 088…1 151), by the lag-free
        // reading. The 17th period is mixed with that reading, the 18th after it left the window,
        // by readings 3 frames later, which put the voice at 1 086: already written. Placed while
        // the 17th period was mixed, it begins at 1 089, on time.
        let sink = LaggingSink(lagFrames: 3)
        let output = AudioOutput(sink: sink)
        #expect(throws: Never.self) { try output.open() }
        let voice = AudioVoice(stereoSamples: [1, 1])
        for period in 0..<20 {
            if period == 10 { #expect(output.schedule(voice, audibleAt: MonotonicInstant(nanoseconds: sink.format.nanoseconds(frames: 1_089)))) }
            #expect(output.process())
        }
        #expect(sink.left.firstIndex(of: 1) == 1_089)
        #expect(output.statistics.late == 0)
        #expect(output.statistics.timingJumps == 0)
        #expect(output.audibleInstant(ofFrame: 0) == MonotonicInstant(nanoseconds: sink.format.nanoseconds(frames: 3)))
    }

    @Test func aVoicePlacedAheadIsPlacedAgainWhenTheTimingRestartsBeforeItSounds() {
        // Placed at 1 290 while the 20th period (1 216…1 279) is mixed; the reading after it jumps
        // 256 frames later (a stall the kernel did not report), so by the new timing the voice's
        // instant is frame 1 034, already written: it begins at once, at 1 280, and counts as late
        // — not at 1 290, where the old timing had put it.
        let sink = JumpingSink(jumpAt: 20, jumpFrames: 256)
        let output = AudioOutput(sink: sink)
        #expect(throws: Never.self) { try output.open() }
        let voice = AudioVoice(stereoSamples: [1, 1])
        for period in 0..<24 {
            if period == 10 { #expect(output.schedule(voice, audibleAt: MonotonicInstant(nanoseconds: sink.format.nanoseconds(frames: 1_290)))) }
            #expect(output.process())
        }
        #expect(sink.left.firstIndex(of: 1) == 1_280)
        #expect(output.statistics.timingJumps == 1)
        #expect(output.statistics.late == 1)
        #expect(output.statistics.maximumLateness == .nanoseconds(sink.format.nanoseconds(frames: 246)))
    }

    @Test func aVoicePlacedAheadAndCancelledAtItsInstantNeverSounds() {
        let sink = LaggingSink(lagFrames: 0)
        let output = AudioOutput(sink: sink)
        #expect(throws: Never.self) { try output.open() }
        let voice = AudioVoice(stereoSamples: [1, 1])
        let instant = MonotonicInstant(nanoseconds: sink.format.nanoseconds(frames: 1_089))
        for period in 0..<20 {
            if period == 10 { #expect(output.schedule(voice, audibleAt: instant)) }
            // After the 17th period placed it at 1 089, in the 18th.
            if period == 17 { #expect(output.cancelAll(at: instant)) }
            #expect(output.process())
        }
        #expect(!sink.left.contains(1))
        #expect(output.statistics.cancelled == 1)
        #expect(output.statistics.completed == 0)
    }

    @Test func readingsThatLagByLessThanTheToleranceKeepTheEarliestOrigin() {
        // Lags up to a period (the pointer of a device that moves a period at a time) are lag, not
        // lost time: the estimate keeps the lag-free reading and never restarts.
        let format = AudioStreamFormat(sampleRate: 48_000, periodFrames: 48, periodCount: 4)
        var clock = _StreamClock(format: format, window: 16)
        #expect(clock.jumpTolerance == 2_000_000)     // half the 192-frame buffer
        var jumps = 0
        for (written, lag) in [(48, 0), (96, 1_000_000), (144, 1_900_000), (192, 300_000)] as [(Int64, Int64)] {
            let instant = Int64(1_000_000) + format.nanoseconds(frames: written - 48) + lag
            if clock.observe(AudioTimestamp(framesWritten: written, delayFrames: 48, instant: .init(nanoseconds: instant))) {
                jumps += 1
            }
        }
        #expect(jumps == 0)
        #expect(clock.origin == 1_000_000)
    }

    @Test func theAudioThreadAsksForAPriorityBelowTheHapticSchedulersByDefault() {
        // A trigger is due at an instant; a period may be mixed any time within the device buffer.
        #expect(AudioOutputConfiguration().realtimePriority == 40)
        #expect(AudioOutputConfiguration().realtimePriority < SchedulerConfiguration().realtimePriority)
    }

    @Test func theAudioThreadStartsAndStopsAndReleasesWhatItHeld() throws {
        let output = AudioOutput(sink: NullAudioSink(format: AudioStreamFormat(), timing: .realtime))
        weak var far: AudioVoice?
        try output.start()
        #expect(output.isRunning)
        do {
            let voice = AudioVoice(stereoSamples: [1, 1])
            far = voice
            #expect(output.schedule(voice, audibleAt: SystemMonotonicClock().now().advanced(by: 3_600_000_000_000)))
        }
        output.stop()
        #expect(!output.isRunning)
        #expect(far == nil)
    }
}
