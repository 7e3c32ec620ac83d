import HapticsRendering
import HapticsSystem
import HapticsTestSupport
import Testing

@testable import HapticsScheduler

/// What a game's calls produced on one scheduler: every output, every ending, the counters.
private struct Played: Equatable {
    var emissions: [Emission]
    var endings: [PlayerEnding]
    var statistics: SchedulerStatistics
}

/// Runs `scenario` twice on fresh schedulers: once with the game's plays made through
/// `startNow` (which plays an armed start when it can), once through an immediate group of one
/// start with its intensity (which never does). Returns both, the group's first.
private func bothWays(
    _ scenario: (SchedulerRig, _ play: (PlayerID, Double, Int64) throws -> Void) throws -> Void
) throws -> (group: Played, startNow: Played) {
    var results: [Played] = []
    for throughStartNow in [false, true] {
        let rig = SchedulerRig()
        try scenario(rig) { (player: PlayerID, intensity: Double, tag: Int64) throws -> Void in
            let accepted: Bool
            if throughStartNow {
                accepted = try rig.scheduler.startNow(player, tag: tag, intensity: intensity, now: rig.clock.now())
            } else {
                var group = rig.scheduler.beginImmediateGroup(now: rig.clock.now())
                accepted = try rig.scheduler.start(player, at: rig.clock.now(), tag: tag, intensity: intensity, in: &group)
                rig.scheduler.endImmediateGroup(group)
            }
            #expect(accepted)
        }
        var endings: [PlayerEnding] = []
        rig.scheduler.drainEndings(into: &endings)
        results.append(Played(emissions: rig.output.take(), endings: endings, statistics: rig.scheduler.statistics))
    }
    return (results[0], results[1])
}

/// Asserts that both ways played exactly the same, and that `startNow` played `armed` armed starts.
private func expectSamePlay(_ played: (group: Played, startNow: Played), armed: Int,
                            sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(played.group.statistics.armedStarts == 0, sourceLocation: sourceLocation)
    #expect(played.startNow.statistics.armedStarts == armed, sourceLocation: sourceLocation)
    var counters = played.startNow.statistics
    counters.armedStarts = 0
    #expect(played.startNow.emissions == played.group.emissions, sourceLocation: sourceLocation)
    #expect(played.startNow.endings == played.group.endings, sourceLocation: sourceLocation)
    #expect(counters == played.group.statistics, sourceLocation: sourceLocation)
}

/// A player of a 10 ms program made on `rig`, played once (tag 1, intensity 1) and run to its end:
/// the armed start, ready.
private func playedToItsEnd(_ rig: SchedulerRig, _ play: (PlayerID, Double, Int64) throws -> Void) throws -> PlayerID {
    let player = try rig.player(rumbleProgram([(0, 100, 200)], duration: 10 * ms))
    try play(player, 1, 1)
    rig.runOnDeadlines(until: rig.now + 15 * ms)
    return player
}

/// `playedToItsEnd`, with another player's start submitted `offset` after it (a `lasting` program
/// of one level, made first): the armed player.
private func playedToItsEnd(_ rig: SchedulerRig, _ play: (PlayerID, Double, Int64) throws -> Void,
                            thenAnotherStartedIn offset: Int64, lasting: Int64) throws -> PlayerID {
    let other = try rig.player(rumbleProgram([(0, 7, 8)], duration: lasting))
    let player = try playedToItsEnd(rig, play)
    rig.scheduler.start(other, at: rig.at(rig.now + offset))
    return player
}

/// After a change that a pass takes (`process()`), `after` later: `player` played again (tag 2) at
/// `intensity`, then run for `running`.
private func processedThenPlayedAgain(_ rig: SchedulerRig, _ play: (PlayerID, Double, Int64) throws -> Void,
                                      _ player: PlayerID, intensity: Double = 1, after: Duration = .milliseconds(1),
                                      running: Int64 = 20 * ms) throws {
    rig.scheduler.process()
    rig.clock.advance(by: after)
    try play(player, intensity, 2)
    rig.runOnDeadlines(until: rig.now + running)
}

@Suite("An armed start plays exactly what a group of one start plays, and only when nothing changed")
struct ArmedStartTests {
    @Test("a player started again after its end, at the same intensity, is the armed start: same levels, instants, endings, counters")
    func aRepeatedStartIsArmed() throws {
        let played = try bothWays { rig, play in
            let player = try rig.player(rumbleProgram([(0, 100, 200), (4 * ms, 300, 400)], duration: 10 * ms))
            let t0 = rig.now
            try play(player, 1, 1)
            rig.runOnDeadlines(until: t0 + 20 * ms)
            // Ended, and the realtime side's pass (its stop) let processing go with the arm ready.
            rig.clock.advance(to: rig.at(t0 + 30 * ms))
            try play(player, 1, 2)
            rig.runOnDeadlines(until: t0 + 50 * ms)
            // Another intensity: the arm is not for it. The one after is.
            rig.clock.advance(to: rig.at(t0 + 60 * ms))
            try play(player, 0.5, 3)
            rig.runOnDeadlines(until: t0 + 80 * ms)
            rig.clock.advance(to: rig.at(t0 + 90 * ms))
            try play(player, 0.5, 4)
            rig.runOnDeadlines(until: t0 + 110 * ms)
        }
        expectSamePlay(played, armed: 2)
        let t0 = SchedulerRig().now
        // The armed start at 30 ms: its first level at its call, its next step and its stop timed.
        #expect(played.startNow.emissions[3...5] == [
            Emission(.rumble(strong: 100, weak: 200), deadline: t0 + 30 * ms, now: t0 + 30 * ms),
            Emission(.rumble(strong: 300, weak: 400), deadline: t0 + 34 * ms, now: t0 + 34 * ms),
            Emission(.stop, deadline: t0 + 40 * ms, now: t0 + 40 * ms),
        ])
        #expect(played.startNow.endings.map(\.tag) == [1, 2, 3, 4])
        #expect(played.startNow.statistics.leadingWrites == 4)
    }

    @Test("the arm is checked again by every owner of processing: a playing player, another player, a direct level, a changed sharpness")
    func whatProcessingChangesIsSeen() throws {
        // Still playing: a restart, which the arm never covers — also right after an armed start,
        // whose own end of processing checks the arm again.
        expectSamePlay(try bothWays { rig, play in
            let player = try rig.player(rumbleProgram([(0, 100, 200)], duration: 10 * ms))
            try play(player, 1, 1)
            rig.clock.advance(by: .milliseconds(2))
            try play(player, 1, 2)
            rig.runOnDeadlines(until: rig.now + 20 * ms)
            try play(player, 1, 3)
            rig.clock.advance(by: .milliseconds(2))
            try play(player, 1, 4)
            rig.runOnDeadlines(until: rig.now + 20 * ms)
        }, armed: 1)
        // Another player playing on the channel (started by a pass, not by `startNow`).
        expectSamePlay(try bothWays { rig, play in
            let player = try playedToItsEnd(rig, play, thenAnotherStartedIn: 0, lasting: 30 * ms)
            try processedThenPlayedAgain(rig, play, player, running: 40 * ms)
            // Everything ended: armed again.
            try play(player, 1, 3)
            rig.runOnDeadlines(until: rig.now + 20 * ms)
        }, armed: 1)
        // A direct level on the channel.
        expectSamePlay(try bothWays { rig, play in
            let player = try playedToItsEnd(rig, play)
            #expect(try rig.scheduler.setMotorLevels(low: 0.25, high: 0.5, on: rig.channel, at: rig.clock.now(),
                                                     until: rig.at(rig.now + 5 * ms)))
            try processedThenPlayedAgain(rig, play, player)
        }, armed: 0)
        // A sharpness changed while the player was stopped: the arm's level is rendered again.
        let sharpened = try bothWays { rig, play in
            let player = try rig.player(rumbleProgram([(0, 20_000, 40_000)], duration: 10 * ms))
            try play(player, 0.8, 1)
            rig.runOnDeadlines(until: rig.now + 15 * ms)
            #expect(try rig.scheduler.setParameter(player, .hapticSharpnessControl, value: 0.4, at: rig.clock.now()))
            try processedThenPlayedAgain(rig, play, player, intensity: 0.8)
        }
        expectSamePlay(sharpened, armed: 1)
        let levels = sharpened.startNow.emissions.map(\.command).filter { !$0.isSilent }
        #expect(levels.count == 2 && levels[0] != levels[1])
    }

    @Test("what changes without processing is confirmed by the armed start itself: tracing, the queue, a due deadline, the binding")
    func whatChangesWithoutProcessingIsSeen() throws {
        // Tracing on: a traced start records its stages, which the armed start does not.
        expectSamePlay(try bothWays { rig, play in
            let player = try playedToItsEnd(rig, play)
            rig.scheduler.startTracing()
            try play(player, 1, 2)
            rig.scheduler.stopTracing()
            rig.runOnDeadlines(until: rig.now + 15 * ms)
        }, armed: 0)
        // A submission waiting in the queue: it comes first, through the pass.
        expectSamePlay(try bothWays { rig, play in
            let player = try playedToItsEnd(rig, play, thenAnotherStartedIn: 50 * ms, lasting: 5 * ms)
            try play(player, 1, 2)
            rig.runOnDeadlines(until: rig.now + 80 * ms)
        }, armed: 0)
        // Something due before now that no pass has taken yet (the realtime thread is late).
        expectSamePlay(try bothWays { rig, play in
            let player = try playedToItsEnd(rig, play, thenAnotherStartedIn: 2 * ms, lasting: 5 * ms)
            try processedThenPlayedAgain(rig, play, player, after: .milliseconds(3), running: 30 * ms)
        }, armed: 0)
        // The armed player released and its slot bound again: the old name is refused as a group
        // refuses it, and the new player is not the armed one until it has played once.
        let rebound = try bothWays { rig, play in
            let first = try rig.player(rumbleProgram([(0, 100, 200)], duration: 10 * ms))
            try play(first, 1, 1)
            rig.runOnDeadlines(until: rig.now + 15 * ms)
            rig.scheduler.releasePlayer(first)
            let second = try rig.player(rumbleProgram([(0, 300, 400)], duration: 10 * ms))
            #expect(second.index == first.index && second.generation != first.generation)
            try play(second, 1, 2)
            rig.runOnDeadlines(until: rig.now + 15 * ms)
            try play(second, 1, 3)
            rig.runOnDeadlines(until: rig.now + 15 * ms)
        }
        expectSamePlay(rebound, armed: 1)
        #expect(rebound.startNow.emissions.map(\.command) == [.rumble(strong: 100, weak: 200), .stop,
                                                             .rumble(strong: 300, weak: 400), .stop,
                                                             .rumble(strong: 300, weak: 400), .stop])
    }

    @Test("a closed realtime side is never written to by an armed start")
    func aClosedSchedulerFallsBack() throws {
        let rig = SchedulerRig()
        let player = try rig.player(rumbleProgram([(0, 100, 200)], duration: 10 * ms))
        #expect(try rig.scheduler.startNow(player, tag: 1, intensity: 1, now: rig.clock.now()))
        rig.runOnDeadlines(until: rig.now + 15 * ms)
        _ = rig.output.take()
        rig.scheduler.immediateClosed.store(true, ordering: .sequentiallyConsistent)
        #expect(try rig.scheduler.startNow(player, tag: 2, intensity: 1, now: rig.clock.now()))
        #expect(rig.output.take().isEmpty)
        #expect(rig.scheduler.statistics.armedStarts == 0)
        #expect(rig.scheduler.statistics.immediateFallbacks == 1)
    }
}
