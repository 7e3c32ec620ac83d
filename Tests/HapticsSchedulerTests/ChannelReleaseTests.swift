import HapticsRendering
import HapticsSystem
import HapticsTestSupport
import Testing
@testable import HapticsScheduler

@Suite("Letting go of a channel")
struct ChannelReleaseTests {
    @Test func releasingAChannelsPlayersStopsThemAndLeavesTheOtherChannelAlone() throws {
        let rig = SchedulerRig()
        let other = RecordingActuator()
        let second = try rig.scheduler.addChannel(output: other, profile: testRumble)
        let t0 = rig.nowNanoseconds
        let program = try rig.scheduler.load(rumbleProgram([(0, 1, 1)], duration: 500 * ms))
        let first = try rig.scheduler.makePlayer(program: program, channel: rig.channel)
        let alsoFirst = try rig.scheduler.makePlayer(program: program, channel: rig.channel)
        let elsewhere = try rig.scheduler.makePlayer(program: program, channel: second)
        for player in [first, elsewhere] { rig.scheduler.start(player, at: rig.at(t0)) }
        rig.run(to: t0)
        #expect(rig.scheduler.releasePlayers(on: rig.channel) == 2)
        #expect(rig.scheduler.releasePlayers(on: rig.channel) == 0)
        // Released players' IDs are ignored from now on.
        #expect(rig.scheduler.start(alsoFirst, at: rig.at(t0 + 1 * ms)))
        rig.run(to: t0 + 2 * ms)
        #expect(rig.output.recorded.map(\.command) == [.rumble(strong: 1, weak: 1), .stop])
        #expect(other.recorded.map(\.command) == [.rumble(strong: 1, weak: 1)])
    }

    @Test func stoppingAChannelsPlayersSilencesItAndKeepsThemUsable() throws {
        let rig = SchedulerRig()
        let t0 = rig.nowNanoseconds
        let player = try rig.player(rumbleProgram([(0, 1, 1)], duration: 500 * ms))
        rig.scheduler.start(player, at: rig.at(t0))
        rig.run(to: t0)
        #expect(rig.scheduler.stopPlayers(on: rig.channel, at: rig.at(t0 + 1 * ms)))
        rig.run(to: t0 + 1 * ms)
        rig.scheduler.start(player, at: rig.at(t0 + 2 * ms))
        rig.run(to: t0 + 2 * ms)
        #expect(rig.output.recorded.map(\.command) == [.rumble(strong: 1, weak: 1), .stop, .rumble(strong: 1, weak: 1)])
    }

    @Test func aChannelTakesAnotherProfileOnlyOnceItsPlayersAreGoneAndProcessingHasLetGo() throws {
        let rig = SchedulerRig()
        let player = try rig.player(rumbleProgram([(0, 1, 1)], duration: 500 * ms, intensity: 1))
        var louder = testRumble
        louder.magnitudeFloor = 0.5
        let early = rig.scheduler.processingMark()
        rig.run(to: rig.nowNanoseconds)
        #expect(throws: SchedulerError.channelInUse(rig.channel)) { try rig.scheduler.setChannelProfile(rig.channel, louder, after: early) }
        rig.scheduler.releasePlayers(on: rig.channel)
        let mark = rig.scheduler.processingMark()
        #expect(throws: SchedulerError.channelInUse(rig.channel)) { try rig.scheduler.setChannelProfile(rig.channel, louder, after: mark) }
        rig.run(to: rig.nowNanoseconds)
        try rig.scheduler.setChannelProfile(rig.channel, louder, after: mark)
        #expect(throws: SchedulerError.unknownChannel(ChannelID(rawValue: 5))) {
            try rig.scheduler.setChannelProfile(ChannelID(rawValue: 5), louder, after: mark)
        }
        // A new player's parameters re-map through the new profile.
        let next = try rig.player(rumbleProgram([(0, 1, 1)], duration: 500 * ms, intensity: 1))
        let t0 = rig.nowNanoseconds
        _ = try rig.scheduler.setParameter(next, .hapticIntensityControl, value: 0.25, at: rig.at(t0))
        rig.scheduler.start(next, at: rig.at(t0))
        rig.run(to: t0)
        #expect(rig.output.recorded.map(\.command) == [louder.command(intensity: 0.25, sharpness: 0.5)])
        _ = player
        #expect(SchedulerError.channelInUse(rig.channel).description == "scheduler: channel 0 is still in use")
    }

    @Test func aMarkIsPassedByThePassAfterItAndNotBefore() {
        let rig = SchedulerRig()
        let mark = rig.scheduler.processingMark()
        #expect(!rig.scheduler.hasPassed(mark))
        rig.scheduler.requestProcessingPass()  // No realtime thread: nothing happens.
        #expect(!rig.scheduler.hasPassed(mark))
        rig.run(to: rig.nowNanoseconds)
        #expect(rig.scheduler.hasPassed(mark))
        let next = rig.scheduler.processingMark()
        #expect(!rig.scheduler.hasPassed(next))
    }
}
