import HapticsDevices
import HapticsRendering
import HapticsScheduler
import HapticsSystem
import HapticsTestSupport
import Synchronization
import Testing
@testable import Haptics

/// A device that rehearses: it records each command with whether it came while rehearsing, and
/// each switch of its rehearsal.
private final class RehearsingRecorder: RehearsingActuator {
    struct Step: Equatable, Sendable {
        let command: ActuatorCommand
        let rehearsed: Bool
    }
    let steps = Recorder<Step>(reservingCapacity: 64)
    let switches = Recorder<Bool>(reservingCapacity: 8)
    private let rehearsing = Atomic<Bool>(false)

    func setRehearsing(_ rehearsing: Bool) {
        switches.append(rehearsing)
        self.rehearsing.store(rehearsing, ordering: .relaxed)
    }

    func perform(_ command: ActuatorCommand, channel: ChannelID, deadline: MonotonicInstant, now: MonotonicInstant) {
        steps.append(Step(command: command, rehearsed: rehearsing.load(ordering: .relaxed)))
    }
}

@Suite("Rehearsal at start")
struct RehearsalTests {
    @Test("start rehearses the heavy impact and a player, each stopped; the game's plays are never rehearsed")
    func startRehearses() throws {
        let pad = RehearsingRecorder()
        let other = RecordingActuator()
        let engine = HapticEngine(outputs: [HapticEngine.Output(device: pad, profile: .genericRumble),
                                            HapticEngine.Output(device: other, profile: .genericRumble)])
        let generator = ImpactFeedbackGenerator(style: .heavy, engine: engine)
        try engine.start()
        defer { engine.stop() }
        // Inside start(): the impact's level and the silence after it, then the player's first
        // level and its silence, all rehearsed, and nothing on the device that cannot rehearse.
        #expect(pad.switches.all == [true, false])
        let steps = pad.steps.take()
        #expect(steps.map(\.rehearsed) == [true, true, true, true])
        #expect(steps.map(\.command.isSilent) == [false, true, false, true])
        let rehearsal = Array(steps.prefix(2))
        #expect(other.recorded.isEmpty)
        // The player was released: none is left registered.
        #expect(engine.patternPlayers.players.isEmpty)
        // What the play left is put back: nothing prepared, the intensity last played is 1.
        #expect(!generator.isPrepared)
        #expect(engine.vocabularyEntry(for: .impact(.heavy))?.lastIntensityStep.load(ordering: .relaxed) == HapticEngine.intensitySteps)

        // The game's first play: the same level, written for real, and its own stop.
        let played = generator.impactOccurred()
        guard case .scheduled(let felt) = played else {
            Issue.record("the impact was not scheduled: \(played)")
            return
        }
        #expect(engine.waitUntilSent(through: felt + .milliseconds(200)))
        #expect(pad.steps.all == [RehearsingRecorder.Step(command: rehearsal[0].command, rehearsed: false),
                                  RehearsingRecorder.Step(command: rehearsal[1].command, rehearsed: false)])
        #expect(other.recorded.map(\.command) == [rehearsal[0].command, rehearsal[1].command])
        #expect(pad.switches.all == [true, false])
    }

    @Test("no rehearsal when the configuration says so, nor for an engine driven by hand")
    func noRehearsal() throws {
        let pad = RehearsingRecorder()
        let engine = HapticEngine(outputs: [HapticEngine.Output(device: pad, profile: .genericRumble)],
                                  configuration: .init(rehearsesAtStart: false))
        try engine.start()
        engine.stop()
        let manual = RehearsingRecorder()
        let manuallyDriven = HapticEngine(outputs: [HapticEngine.Output(device: manual, profile: .genericRumble)])
        manuallyDriven.startManuallyDriven()
        manuallyDriven.stop()
        #expect(pad.switches.all.isEmpty && manual.switches.all.isEmpty)
        // Stopping silences what never played: nothing was performed but, at most, silence.
        #expect(pad.steps.all.allSatisfy { $0.command.isSilent && !$0.rehearsed })
    }

    @Test("a stopped engine refuses the plays of every thread but the one rehearsing in start()")
    func onlyTheRehearsingThreadPlays() {
        let engine = HapticEngine(outputs: [HapticEngine.Output(device: RehearsingRecorder(), profile: .genericRumble)])
        #expect(engine.silenceReason() == .engineStopped)
        engine.rehearsalThread.store(1, ordering: .releasing)
        #expect(engine.silenceReason() == .engineStopped)
        engine.rehearsalThread.store(0, ordering: .releasing)
        #expect(engine.play(.impact(.heavy)) == .notPlayed(.engineStopped))
    }
}
