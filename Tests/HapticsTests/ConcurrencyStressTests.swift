import Glibc
@testable import HapticsAudio
import HapticsDevices
import HapticsPatterns
import HapticsRendering
import HapticsScheduler
@testable import Haptics
import HapticsSystem
import HapticsTestSupport
import Synchronization
import Testing

/// What one stress thread saw: how many calls it made and what became of them.
struct StressTally: Sendable {
    var hapticsScheduled = 0
    var hapticsRefused = 0
    var soundScheduled = 0
    var soundRefused = 0
    var parametersSent = 0
    var parametersRefused = 0
    var unexpected = 0

    static func + (a: StressTally, b: StressTally) -> StressTally {
        StressTally(
            hapticsScheduled: a.hapticsScheduled + b.hapticsScheduled, hapticsRefused: a.hapticsRefused + b.hapticsRefused,
            soundScheduled: a.soundScheduled + b.soundScheduled, soundRefused: a.soundRefused + b.soundRefused,
            parametersSent: a.parametersSent + b.parametersSent, parametersRefused: a.parametersRefused + b.parametersRefused,
            unexpected: a.unexpected + b.unexpected)
    }
}

/// Many game threads at once against one engine with its realtime thread, two simulated devices
/// and an audio output with its audio thread: every call is accounted for in the statistics, the
/// devices end silent, and the output lets go of every voice.
@Suite("Concurrency stress")
struct ConcurrencyStressTests {
    /// Calls per thread: 10⁵ in a plain build. Under a sanitizer every memory access is checked
    /// (ThreadSanitizer: 5–15 times slower), so the count is a tenth there to keep the run short.
    static let callsPerThread = Sanitizers.active ? 10_000 : 100_000
    static let threads = 8

    @Test("8 threads of triggers with sound and parameter changes: each one applied or counted as dropped, silence after stop, no voice left",
          .loadsEveryCore)
    func manyThreadsAgainstOneEngine() throws {
        let devices = [SimulatedDevice(profile: .genericRumble), SimulatedDevice(profile: .dualSense)]
        // Mixing: the triggers layer over a looping pattern, which would rumble for ever unless
        // stopping the engine silences it.
        let engine = HapticEngine(
            outputs: devices.map { HapticEngine.Output(device: $0, profile: $0.profile) },
            configuration: HapticEngine.Configuration(overlapPolicy: .mix))
        let audio = AudioOutput(sink: NullAudioSink(timing: .realtime))
        try engine.attachAudio(audio)
        try audio.start()
        try engine.start()
        let scheduler = engine.scheduler
        let hum = try engine.makePlayer(pattern: Pattern(events: [
            PatternEvent(kind: .hapticContinuous, time: 0, duration: 0.5,
                         parameters: EventParameters(hapticIntensity: 0.6, hapticSharpness: 0.3)),
        ]))
        #expect(hum.setLooping(true))
        #expect(hum.start().isScheduled)
        let auditBefore = scheduler.statistics
        let soundBefore = audio.statistics
        #expect(auditBefore.dropped == 0)

        let tallies = OrderedMutex<[StressTally]>([])
        let feedbacks = Feedback.vocabulary
        runConcurrently(Self.threads, niceness: 19) { thread in
            var tally = StressTally()
            for index in 0..<Self.callsPerThread {
                if index.isMultiple(of: 2) {
                    let outcome = engine.play(feedbacks[(index / 2 + thread) % feedbacks.count], withSound: true)
                    switch outcome.haptics {
                    case .scheduled: tally.hapticsScheduled += 1
                    case .notPlayed(.queueFull): tally.hapticsRefused += 1
                    case .notPlayed: tally.unexpected += 1
                    }
                    switch outcome.audio {
                    case .scheduled: tally.soundScheduled += 1
                    case .notPlayed(.queueFull), .notPlayed(.noVoiceSlot): tally.soundRefused += 1
                    case .notPlayed: tally.unexpected += 1
                    }
                } else if (try? hum.send(.hapticIntensityControl, value: Double(index % 11) / 10)) == true {
                    tally.parametersSent += 1
                } else {
                    tally.parametersRefused += 1
                }
            }
            tallies.withLock { $0.append(tally) }
        }
        let tally = tallies.withLock { $0.reduce(StressTally(), +) }
        #expect(tally.unexpected == 0)
        #expect(tally.hapticsScheduled + tally.hapticsRefused == Self.threads * Self.callsPerThread / 2)
        #expect(tally.parametersSent + tally.parametersRefused == Self.threads * Self.callsPerThread / 2)

        // From here on each device records only what is left: the last commands, then the stop.
        for device in devices { device.reset() }
        engine.stop()

        // Haptics: a refused call is exactly one refused submission (each call stops at the first),
        // and every accepted submission was applied, or discarded when the realtime thread stopped.
        let audit = scheduler.statistics
        #expect(audit.dropped - auditBefore.dropped == tally.hapticsRefused + tally.parametersRefused)
        // A trigger is 1 submission per device, a parameter change 1 per device; a refused call may
        // have had some accepted before its refusal: at most 1 of a trigger's 2, 1 of a change's 2.
        let accepted = audit.submitted - auditBefore.submitted
        let complete = 2 * tally.hapticsScheduled + 2 * tally.parametersSent
        #expect(accepted >= complete && accepted <= complete + tally.hapticsRefused + tally.parametersRefused)
        #expect(audit.ignored == 0)
        #expect(audit.submitted == audit.applied + audit.ignored + audit.discarded)
        for device in devices {
            let recording = device.recording()
            #expect(device.droppedCount == 0)
            #expect(recording.last?.command == .stop)
            let timeline = device.timeline()
            #expect(timeline.levels(at: timeline.end) == .silent)
        }

        // Sound: every voice the output accepted comes back (played, or cancelled by the engine's
        // stop) within a few periods.
        let deadline = SystemMonotonicClock().now().advanced(by: 10_000_000_000)
        while audio.heldVoiceCount > 0, SystemMonotonicClock().now() < deadline {
            _ = audio.drainEvents()
            usleep(1_000)
        }
        #expect(audio.heldVoiceCount == 0)
        audio.stop()
        let sound = audio.statistics
        #expect(sound.scheduled - soundBefore.scheduled == tally.soundScheduled)
        // Every voice refused said so at once: none accepted was let go later.
        #expect(sound.dropped - soundBefore.dropped == tally.soundRefused)
        #expect(sound.scheduled == sound.completed + sound.cancelled)
        #expect(audio.heldVoiceCount == 0)
        print("""
            stress: \(Self.threads) threads × \(Self.callsPerThread) calls; haptics \(tally.hapticsScheduled) scheduled, \
            \(tally.hapticsRefused) refused; parameters \(tally.parametersSent) sent, \(tally.parametersRefused) refused; \
            scheduler submitted \(audit.submitted) = applied \(audit.applied) + discarded \(audit.discarded), dropped \(audit.dropped), \
            emitted \(audit.emitted); sound \(sound.scheduled) scheduled = completed \(sound.completed) + cancelled \
            \(sound.cancelled), \(tally.soundRefused) refused, \(sound.periods) periods
            """)
    }
}

@Suite("Channels changing hands under load")
struct ChannelHandOverStressTests {
    @Test("plays for one pad race 120 hand-overs of its channel to other pads: no other pad hears a thing",
          .loadsEveryCore)
    func staleSubmissionsNeverReachANewDevice() throws {
        // Two channels, three pads, two plugged in at a time: a channel that pad A played on goes to
        // pad B or C while game threads keep playing on A alone.
        let engine = HapticEngine(outputs: [], configuration: .init(scheduler: SchedulerConfiguration(maximumChannels: 2)))
        try engine.start()
        let others = OrderedMutex<[SimulatedDevice]>([])
        let opener: HapticEngine.DeviceOpener = { path throws(DeviceError) in
            let device = SimulatedDevice(profile: .genericRumble)
            if !path.hasSuffix("event1") { others.withLock { $0.append(device) } }
            return padOutput(padNode(path, uniq: path), device: device)
        }
        engine.handle(.appeared(path: "/dev/input/event1"), opener: opener)
        engine.handle(.appeared(path: "/dev/input/event2"), opener: opener)
        let padA = try #require(engine.devices.first)
        let failures = Atomic<Int>(0)
        let changing = Atomic<Bool>(true)
        runConcurrently(4, niceness: 10) { thread in
            if thread == 3 {
                var plugged = "/dev/input/event2"
                for _ in 0..<120 {
                    // A's channel goes to the next pad (the only free one), A takes the other's.
                    let channel = engine.channel(of: padA.id)
                    let next = plugged.hasSuffix("event2") ? "/dev/input/event3" : "/dev/input/event2"
                    engine.handle(.disappeared(path: "/dev/input/event1"), opener: opener)
                    engine.handle(.appeared(path: next), opener: opener)
                    if engine.channel(path: next) != channel { failures.add(1, ordering: .relaxed) }
                    engine.handle(.disappeared(path: plugged), opener: opener)
                    engine.handle(.appeared(path: "/dev/input/event1"), opener: opener)
                    if engine.channel(of: padA.id) == nil || engine.channel(of: padA.id) == channel {
                        failures.add(1, ordering: .relaxed)
                    }
                    plugged = next
                }
                changing.store(false, ordering: .releasing)
            } else {
                let selection = DeviceSelection(padA)
                while changing.load(ordering: .acquiring) {
                    _ = engine.play(.impact(.rigid), on: selection)
                    _ = engine.play(.selection, on: selection)
                }
            }
        }
        #expect(failures.load(ordering: .relaxed) == 0)
        #expect(engine.devices.first { $0.id == padA.id }?.state == .available)
        let heard = others.withLock { $0.map { $0.recording() } }
        engine.stop()
        #expect(heard.count == 121)
        #expect(heard.allSatisfy { $0.isEmpty }, "\(heard.filter { !$0.isEmpty }.prefix(3))")
    }
}
