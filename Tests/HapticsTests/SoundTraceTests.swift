import HapticsAudio
import HapticsPatterns
import HapticsScheduler
@testable import Haptics
import HapticsSystem
import Synchronization
import HapticsTestSupport
import Testing

@Suite("Traces: a pattern player's sounds are audible where the engine places them")
struct SoundTraceTests {
    /// A fixture with `two.ahap`: a 0.1 s rumble and two 10 ms clicks, at 0 and at 50 ms.
    func twoClickFixture(audioConfiguration: AudioOutputConfiguration = AudioOutputConfiguration(),
                         attach: Bool = true) throws -> (SoundFixture, String) {
        let fixture = try SoundFixture(attach: attach, audioConfiguration: audioConfiguration)
        try fixture.folder.write(WAVWriter.encode(samples: Array(repeating: 16_384, count: 2 * 480),
                                                  sampleRate: 48_000, channelCount: 2), to: "two/click.wav")
        try fixture.folder.write(Array("""
            {"Version": 1.0, "Pattern": [
              {"Event": {"Time": 0.0, "EventType": "HapticContinuous", "EventDuration": 0.1,
                         "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 1.0}]}},
              {"Event": {"Time": 0.0, "EventType": "AudioCustom", "EventWaveformPath": "click.wav"}},
              {"Event": {"Time": 0.05, "EventType": "AudioCustom", "EventWaveformPath": "click.wav"}}
            ]}
            """.utf8), to: "two/two.ahap")
        return (fixture, fixture.folder.path + "/two/two.ahap")
    }

    /// The `audible` record of a sound heard at `audible`, asked for at `called`, on `player`'s
    /// timeline, recorded on this thread.
    func audible(_ audible: MonotonicInstant, calledAt called: MonotonicInstant, player: Int32) -> TraceRecord {
        TraceRecord(event: .audible, channel: -1, player: player, command: .stop, deadline: audible, time: audible,
                    began: called, thread: ThreadIdentity.current)
    }

    /// The player's trace id: its first output's scheduler player.
    func traceSlot(_ player: HapticPatternPlayer) throws -> Int32 {
        try #require(player.outputs.first).player.traceSlot
    }

    /// The loop fixture's player (`SoundLoopTests.loopFixture()`: a 220 ms program, a click at 0),
    /// tracing, looping, started to be heard at 100 ms; with its trace id.
    func startedLoop(_ loops: SoundLoopTests) throws
        -> (fixture: SoundFixture, player: HapticPatternPlayer, slot: Int32, onset: MonotonicInstant) {
        let (fixture, path) = try loops.loopFixture()
        let player = try fixture.engine.makePlayer(contentsOf: path)
        fixture.engine.startTracing()
        #expect(player.setLooping(true))
        let onset = fixture.origin + .milliseconds(100)
        #expect(player.start(at: onset).audio == .scheduled(audibleAt: onset))
        return (fixture, player, try traceSlot(player), onset)
    }

    @Test func eachSoundOfAStartedPatternIsAudibleAtItsInstantUnderThePlayersID() throws {
        let (fixture, path) = try twoClickFixture()
        defer { fixture.folder.remove() }
        let player = try fixture.engine.makePlayer(contentsOf: path)
        let slot = try traceSlot(player)
        fixture.engine.startTracing()
        let onset = fixture.origin + .milliseconds(100)
        #expect(player.start(at: onset) == PlaybackOutcome.WithSound(haptics: .scheduled(feltAt: onset),
                                                                     audio: .scheduled(audibleAt: onset)))
        fixture.haptics.run(for: 300_000_000)
        let trace = fixture.engine.collectTrace()
        #expect(trace.records.filter { $0.event == .audible } == [
            audible(onset, calledAt: fixture.origin, player: slot),
            audible(onset + .milliseconds(50), calledAt: fixture.origin, player: slot),
        ])

        let document = try TraceDocument(trace.json())
        try document.validate()
        let sounds = document.events.filter { $0.name == "audible" }
        #expect(sounds.map(\.summary) == ["audible i 100000.000 2/65536", "audible i 150000.000 2/65536"])
        #expect(sounds.map(\.arguments) == [["called_us": 0, "player": Double(slot)], ["called_us": 0, "player": Double(slot)]])
        #expect(document.metadata["2/65536 thread_name"] == "audio output")
        // The player's haptics carry the same id: its start's submission, its writes, the motor's rise.
        let submits = document.events.filter { $0.name == "submit" && $0.arguments["player"] == Double(slot) }
        #expect(!submits.isEmpty)
        let writes = document.events.filter { $0.name == "write" }
        #expect(writes.count == fixture.haptics.devices[0].recording().count)
        #expect(writes.allSatisfy { $0.arguments["player"] == Double(slot) })
        #expect(document.events.first { $0.name == "rise" }.map { $0.summary } == "rise X 40000.000+60000.000 2/1")
        #expect(document.events.first { $0.name == "rise" }?.arguments["player"] == Double(slot))
    }

    @Test func eachLoopPassIsAudibleWhenHousekeepingQueuesIt() throws {
        let loops = SoundLoopTests()
        let (fixture, player, slot, onset) = try startedLoop(loops)
        defer { fixture.folder.remove() }
        // A pass is handed over once it begins within two housekeeping intervals and the output's
        // lead time (one 256-frame period) of now: pass 1 (320 ms) at 250 ms, pass 2 (540 ms) at 450 ms.
        #expect(fixture.audio.minimumLeadTime == .nanoseconds(5_333_333))
        loops.drive(fixture, for: 550_000_000)
        #expect(player.setLooping(false))
        loops.drive(fixture, for: 400_000_000)
        let trace = fixture.engine.collectTrace()
        #expect(trace.records.filter { $0.event == .audible } == [
            audible(onset, calledAt: fixture.origin, player: slot),
            audible(onset + .milliseconds(220), calledAt: fixture.origin + .milliseconds(250), player: slot),
            audible(onset + .milliseconds(440), calledAt: fixture.origin + .milliseconds(450), player: slot),
        ])
        #expect(fixture.audio.statistics.scheduled == 3)
        let document = try TraceDocument(trace.json())
        try document.validate()
        let sounds = document.events.filter { $0.name == "audible" }
        #expect(sounds.map(\.summary) == ["audible i 100000.000 2/65536", "audible i 320000.000 2/65536",
                                          "audible i 540000.000 2/65536"])
        #expect(sounds.map(\.arguments) == [["called_us": 0, "player": Double(slot)],
                                            ["called_us": 250_000, "player": Double(slot)],
                                            ["called_us": 450_000, "player": Double(slot)]])
    }

    @Test func aSoundTheOutputRefusesIsNotAudible() throws {
        // Two commands fit the output's queue: the start's cancellation of an earlier start's sound,
        // then the first click; the second is refused.
        let (fixture, path) = try twoClickFixture(audioConfiguration: AudioOutputConfiguration(queueCapacity: 1))
        defer { fixture.folder.remove() }
        let player = try fixture.engine.makePlayer(contentsOf: path)
        fixture.engine.startTracing()
        let onset = fixture.origin + .milliseconds(100)
        #expect(player.start(at: onset) == PlaybackOutcome.WithSound(haptics: .scheduled(feltAt: onset),
                                                                     audio: .notPlayed(.queueFull)))
        #expect(fixture.audio.statistics.dropped == 1)
        let trace = fixture.engine.collectTrace()
        #expect(trace.records.filter { $0.event == .audible } == [audible(onset, calledAt: fixture.origin, player: try traceSlot(player))])
        let document = try TraceDocument(trace.json())
        try document.validate()
        #expect(document.events.filter { $0.name == "audible" }.map(\.summary) == ["audible i 100000.000 2/65536"])
    }

    @Test func aSoundWithoutAVoiceSlotIsRefusedAtOnceAndNotTraced() throws {
        // One voice slot: the first click holds it, the second is refused when the pass is queued.
        let (fixture, path) = try twoClickFixture(audioConfiguration: AudioOutputConfiguration(maximumVoices: 1))
        defer { fixture.folder.remove() }
        let player = try fixture.engine.makePlayer(contentsOf: path)
        let events = OrderedMutex<[HapticEngine.Event]>([])
        fixture.engine.setEventHandler { event in events.withLock { $0.append(event) } }
        fixture.engine.startTracing()
        let onset = fixture.origin + .milliseconds(100)
        #expect(player.start(at: onset) == PlaybackOutcome.WithSound(haptics: .scheduled(feltAt: onset),
                                                                     audio: .notPlayed(.noVoiceSlot)))
        #expect(fixture.audio.statistics.noVoiceSlot == 1)
        let slot = try traceSlot(player)
        fixture.audio.process()
        fixture.engine.performHousekeeping()
        #expect(events.withLock { $0 } == [])
        let trace = fixture.engine.collectTrace()
        #expect(trace.records.filter { $0.event == .audible } == [audible(onset, calledAt: fixture.origin, player: slot)])
        let document = try TraceDocument(trace.json())
        try document.validate()
        #expect(document.events.filter { $0.name == "audible" }.map(\.summary) == ["audible i 100000.000 2/65536"])
    }

    @Test func aLoopPassStoppedBeforeItIsHeardIsTakenBack() throws {
        let loops = SoundLoopTests()
        let (fixture, player, slot, onset) = try startedLoop(loops)
        defer { fixture.folder.remove() }
        // Housekeeping at 250 ms queued pass 1, heard at 320 ms; the stop at 300 ms keeps it from
        // being heard. Pass 0 was heard.
        loops.drive(fixture, for: 300_000_000)
        #expect(fixture.audio.statistics.scheduled == 2)
        #expect(player.stop())
        loops.drive(fixture, for: 400_000_000)
        let trace = fixture.engine.collectTrace()
        #expect(trace.records.filter { $0.event == .audible } == [audible(onset, calledAt: fixture.origin, player: slot)])
        fixture.renderSound(periods: 200)
        #expect(try loops.heardRuns(fixture) == loops.clicks(at: [100_000_000]))
    }

    @Test func stoppingOnePlayerTakesBackOnlyItsOwnSounds() throws {
        let (fixture, path) = try twoClickFixture()
        defer { fixture.folder.remove() }
        let first = try fixture.engine.makePlayer(contentsOf: path)
        let second = try fixture.engine.makePlayer(contentsOf: path)
        let (firstSlot, secondSlot) = (try traceSlot(first), try traceSlot(second))
        #expect(firstSlot != secondSlot)
        fixture.engine.startTracing()
        let onset = fixture.origin + .milliseconds(100)
        #expect(first.start(at: onset).audio == .scheduled(audibleAt: onset))
        #expect(second.start(at: onset + .milliseconds(100)).audio == .scheduled(audibleAt: onset + .milliseconds(100)))
        #expect(first.stop())
        #expect(fixture.engine.collectTrace().records.filter { $0.event == .audible } == [
            audible(onset + .milliseconds(100), calledAt: fixture.origin, player: secondSlot),
            audible(onset + .milliseconds(150), calledAt: fixture.origin, player: secondSlot),
        ])
    }

    @Test func startsAndStopsWhileAnotherThreadCollectsTheTraceLeaveNoSoundThatWasNeverHeard() async throws {
        // Room for every voice and cancellation: 200 starts of two clicks, 400 cancellations. No
        // period is mixed, so every voice keeps its slot.
        let (fixture, path) = try twoClickFixture(audioConfiguration: AudioOutputConfiguration(queueCapacity: 4096, maximumVoices: 400))
        defer { fixture.folder.remove() }
        let engine = fixture.engine
        let player = try engine.makePlayer(contentsOf: path)
        engine.startTracing()
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                // The clock stands still: each start is heard 60 ms ahead, and its stop silences it.
                for _ in 0..<200 {
                    _ = player.start(at: nil)
                    _ = player.stop()
                }
            }
            group.addTask {
                for _ in 0..<200 { _ = engine.collectTrace() }
            }
        }
        #expect(fixture.audio.statistics.scheduled == 400)
        let trace = engine.collectTrace()
        #expect(trace.records.filter { $0.event == .audible }.isEmpty)
        #expect(trace.lost == 0)
        // Each start submits its start (at its intensity), each stop its stop.
        #expect(trace.records.filter { $0.event == .submitted }.count == 400)
    }

    @Test func aCueSilencedBeforeItIsHeardIsTakenBackUnlessTheOutputMayHaveMixedIt() throws {
        let fixture = try SoundFixture()
        defer { fixture.folder.remove() }
        fixture.engine.startTracing()
        let first = fixture.origin + .milliseconds(60)
        #expect(fixture.engine.play(.impact(.heavy), withSound: true, at: first).audio == .scheduled(audibleAt: first))
        // 5 ms before it is heard: within the output's lead time (one period, 5.333 ms), so it may
        // be mixed already; going inactive keeps it in the trace.
        fixture.haptics.clock.advance(to: first - .milliseconds(5))
        fixture.engine.isApplicationActive = false
        #expect(fixture.engine.collectTrace().records.filter { $0.event == .audible }.map(\.time) == [first])
        fixture.engine.isApplicationActive = true
        let second = fixture.haptics.clock.now() + .milliseconds(100)
        #expect(fixture.engine.play(.impact(.heavy), withSound: true, at: second).audio == .scheduled(audibleAt: second))
        // 100 ms ahead: not mixed yet, never heard.
        fixture.engine.isApplicationActive = false
        #expect(fixture.engine.collectTrace().records.filter { $0.event == .audible }.map(\.time) == [first])
    }

    @Test func withoutAnAudioOutputNoSoundIsAudible() throws {
        let (fixture, path) = try twoClickFixture(attach: false)
        defer { fixture.folder.remove() }
        let player = try fixture.engine.makePlayer(contentsOf: path)
        fixture.engine.startTracing()
        let onset = fixture.origin + .milliseconds(100)
        #expect(player.start(at: onset) == PlaybackOutcome.WithSound(haptics: .scheduled(feltAt: onset),
                                                                     audio: .notPlayed(.noAudioOutput)))
        fixture.haptics.run(for: 300_000_000)
        let trace = fixture.engine.collectTrace()
        #expect(trace.records.contains { $0.event == .emitted })
        #expect(!trace.records.contains { $0.event == .audible })
        let document = try TraceDocument(trace.json())
        try document.validate()
        #expect(!document.events.contains { $0.name == "audible" })
        #expect(document.metadata["2/65536 thread_name"] == nil)
    }

    @Test func notTracingRecordsNoSoundAndThePatternStillSounds() throws {
        let (fixture, path) = try twoClickFixture()
        defer { fixture.folder.remove() }
        let player = try fixture.engine.makePlayer(contentsOf: path)
        let onset = fixture.origin + .milliseconds(100)
        #expect(player.start(at: onset).audio == .scheduled(audibleAt: onset))
        fixture.haptics.run(for: 300_000_000)
        #expect(fixture.audio.statistics.scheduled == 2)
        #expect(!fixture.engine.isTracing)
        #expect(fixture.engine.collectTrace().records.isEmpty)
    }

    @Test func aFeedbacksCueIsAudibleUnderNoPlayer() throws {
        let fixture = try SoundFixture()
        defer { fixture.folder.remove() }
        fixture.engine.startTracing()
        let onset = fixture.origin + .milliseconds(60)
        #expect(fixture.engine.play(.impact(.heavy), withSound: true, at: onset).audio == .scheduled(audibleAt: onset))
        let trace = fixture.engine.collectTrace()
        #expect(trace.records.filter { $0.event == .audible } == [audible(onset, calledAt: fixture.origin, player: -1)])
        let document = try TraceDocument(trace.json())
        try document.validate()
        #expect(document.events.filter { $0.name == "audible" }.map(\.arguments) == [["called_us": 0, "player": -1]])
    }
}
