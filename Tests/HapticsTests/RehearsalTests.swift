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

@Suite("Rehearsal")
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
                                  configuration: .init(rehearsesDevices: false))
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

    @Test("a device added to the running engine rehearses before the game's plays reach it")
    func addedDeviceRehearses() throws {
        let other = RecordingActuator()
        let engine = HapticEngine(outputs: [HapticEngine.Output(device: other, profile: .genericRumble)])
        try engine.start()
        defer { engine.stop() }
        let pad = RehearsingRecorder()
        let device = try engine.addOutput(HapticEngine.Output(device: pad, profile: .genericRumble))
        // Inside addOutput: the impact and the player, each with its silence, all rehearsed, and
        // nothing on the device that was there.
        #expect(pad.switches.all == [true, false])
        let steps = pad.steps.take()
        #expect(steps.map(\.rehearsed) == [true, true, true, true])
        #expect(steps.map(\.command.isSilent) == [false, true, false, true])
        #expect(other.recorded.isEmpty)
        #expect(engine.patternPlayers.players.isEmpty)
        #expect(engine.roster.liveCount == 2)
        #expect(engine.roster.rehearsalThread.load(ordering: .relaxed) == 0)
        // What the play left is put back: the item is not prepared, its intensity step is the one before.
        #expect(!ImpactFeedbackGenerator(style: .heavy, engine: engine).isPrepared)

        // The game's play on it: the rehearsed level, written for real, and its own stop.
        let played = engine.play(.impact(.heavy), on: device)
        guard case .scheduled(let felt) = played else {
            Issue.record("the impact was not scheduled: \(played)")
            return
        }
        #expect(engine.waitUntilSent(through: felt + .milliseconds(200)))
        #expect(pad.steps.all == [RehearsingRecorder.Step(command: steps[0].command, rehearsed: false),
                                  RehearsingRecorder.Step(command: steps[1].command, rehearsed: false)])
        #expect(other.recorded.isEmpty)
    }

    @Test("a device added to a running engine that does not rehearse plays at once, not rehearsed")
    func addedDeviceWithoutRehearsal() throws {
        let engine = HapticEngine(outputs: [], configuration: .init(rehearsesDevices: false))
        try engine.start()
        defer { engine.stop() }
        let pad = RehearsingRecorder()
        let device = try engine.addOutput(HapticEngine.Output(device: pad, profile: .genericRumble))
        #expect(pad.switches.all.isEmpty && pad.steps.all.isEmpty)
        guard case .scheduled(let felt) = engine.play(.impact(.heavy), on: device) else {
            Issue.record("the impact was not scheduled")
            return
        }
        #expect(engine.waitUntilSent(through: felt + .milliseconds(200)))
        #expect(pad.steps.all.map(\.rehearsed) == [false, false])
    }

    @Test("a rehearsing channel is played on only by the rehearsing thread, until it is made live or retired")
    func rehearsingChannel() {
        let roster = ChannelRoster(capacity: 2)
        roster.publish(0, device: 0, gain: 1, enabled: true, real: true, voiceCoils: false, rehearsing: true)
        #expect(roster.upperBound == 1 && roster.liveCount == 0)
        #expect(!roster.isLive(0) && !roster.isPlayable(0))
        roster.rehearsalThread.store(ThreadIdentity.current &+ 1, ordering: .releasing)
        #expect(!roster.isPlayable(0))
        roster.rehearsalThread.store(ThreadIdentity.current, ordering: .releasing)
        #expect(roster.isPlayable(0) && !roster.isLive(0))
        roster.rehearsalThread.store(0, ordering: .releasing)
        let generation = roster.snapshot(0) >> 2
        #expect(roster.makeLive(0))
        #expect(roster.isLive(0) && roster.isPlayable(0) && roster.liveCount == 1)
        #expect(roster.snapshot(0) >> 2 == generation)
        #expect(!roster.makeLive(0))
        // Retired while rehearsing (a pad unplugged during its rehearsal): never made live.
        roster.publish(1, device: 1, gain: 1, enabled: true, real: true, voiceCoils: false, rehearsing: true)
        #expect(roster.retire(1))
        #expect(!roster.makeLive(1) && !roster.isLive(1) && roster.liveCount == 1)
        #expect(roster.retire(0) && roster.liveCount == 0)
    }

    @Test("a stopped engine refuses the plays of every thread but the one rehearsing in start()")
    func onlyTheRehearsingThreadPlays() {
        let engine = HapticEngine(outputs: [HapticEngine.Output(device: RehearsingRecorder(), profile: .genericRumble)])
        #expect(engine.silenceReason() == .engineStopped)
        engine.roster.rehearsalThread.store(1, ordering: .releasing)
        #expect(engine.silenceReason() == .engineStopped)
        engine.roster.rehearsalThread.store(0, ordering: .releasing)
        #expect(engine.play(.impact(.heavy)) == .notPlayed(.engineStopped))
    }
}
