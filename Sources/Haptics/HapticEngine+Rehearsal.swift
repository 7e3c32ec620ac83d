import HapticsDevices
import HapticsPatterns
import HapticsSystem

// The first play of a process is the slowest: its code runs for the first time (pages mapped,
// symbols bound, and under an emulator translated). `start()` therefore plays once itself, before
// the engine runs, on every device that can rehearse (`RehearsingActuator`: evdev, whose rehearsal
// writes events the kernel drops), and `addOutput` does the same on such a device added to the
// running engine (a pad plugged in after the game started), before the game's plays can reach it;
// each time through the very calls a game's play makes: the heavy impact prepared at intensity 1,
// as a game prepares what it plays, then `play`, the submission, the level written on the
// caller's thread, the stop — and then a pattern player's start and stop.
// Nothing is felt; what the impact's play left (its preparation stamp, its intensity) is put back,
// the player is released, and the level prepared for it is erased on pads that held no
// preparation. Why prepared: at the wire, the game's first call came to 1.07x raw C's first call
// with it, against 1.37x with the unprepared rehearsal in the same run, and 4-5x with none
// (docs/results/benchmarks-log.md, `game`).
extension HapticEngine {
    /// Rehearses on every device that can rehearse. Only from `start()`, before the engine runs.
    func rehearse() {
        rehearse(devices: channelDevices.withLock { $0.map(\.deviceID) })
    }

    /// Rehearses a play of the heavy impact, and a pattern player's start, on the devices of `ids`
    /// that can rehearse: in `start()` before the engine runs, or on a device added to the running
    /// engine while its channel is published for the rehearsal only (`ChannelRoster.admits(_:)`),
    /// so that no play of the game's reaches the device before it has rehearsed.
    ///
    /// On a running engine, what the impact's play left is put back as well: a game thread that
    /// prepares or plays the heavy impact during those milliseconds may find its preparation
    /// stamp put back with it, which at worst lets the preparation expire sooner.
    func rehearse(devices ids: [HapticDevice.ID]) {
        rehearsals.withLock { _ in
            let pads = channelDevices.withLock { devices in
                devices.filter { ids.contains($0.deviceID) }.compactMap { device in
                    (device.output.device as? any RehearsingActuator).map { (id: device.deviceID, actuator: $0) }
                }
            }
            guard !pads.isEmpty, let entry = vocabularyEntry(for: .impact(.heavy)) else { return }
            let preparedUntil = entry.preparedUntil.load(ordering: .relaxed)
            let intensityStep = entry.lastIntensityStep.load(ordering: .relaxed)
            let selection = DeviceSelection(pads.map(\.id))
            let unprepared = prepareRehearsedLevel(entry, on: selection)
            for pad in pads { pad.actuator.setRehearsing(true) }
            roster.rehearsalThread.store(ThreadIdentity.current, ordering: .releasing)
            _ = play(entry, intensity: 1, at: nil, withSound: false, on: selection)
            // The stops go out from the realtime thread, still rehearsed: before the engine runs it
            // is the only thread that processes, and a device added later has no other plays yet.
            let now = scheduler.currentTime()
            for channel in 0..<roster.upperBound {
                guard let found = entry.playable(on: channel, roster, devices: selection) else { continue }
                _ = scheduler.stop(found.slot.player, at: now)
            }
            _ = awaitPass(scheduler.processingMark(), until: now + .seconds(1))
            rehearsePlayer(on: selection)
            roster.rehearsalThread.store(0, ordering: .releasing)
            for pad in pads { pad.actuator.setRehearsing(false) }
            entry.preparedUntil.store(preparedUntil, ordering: .relaxed)
            entry.lastIntensityStep.store(intensityStep, ordering: .relaxed)
            // What the rehearsal prepared goes again on the pads that held no preparation before: an
            // engine left idle keeps no slot, and no expiry to wake for.
            let later = scheduler.currentTime() + .seconds(1)
            for output in unprepared { output.expirePreparations(unusedSince: later) }
        }
    }

    /// Prepares the rehearsed impact's level at intensity 1 on `selection` (one upload a pad, no
    /// level ahead) and marks it prepared, so that the rehearsal plays it as a game's call plays
    /// what the game prepared: through the prepared branch of the engine and of the actuator. The
    /// mark is put back after the rehearsal. Returns the devices that held no preparation before.
    private func prepareRehearsedLevel(_ entry: VocabularyEntry, on selection: DeviceSelection) -> [any PreparableActuator] {
        let targets = preparationTargets(of: entry, on: selection)
        let unprepared = targets.map(\.output).filter { $0.oldestPreparationUse == nil }
        for target in targets { prepare(entry, on: target, ahead: false) }
        entry.preparedUntil.store((scheduler.currentTime() + configuration.prepareLifetime).nanoseconds, ordering: .relaxed)
        return unprepared
    }

    /// What a rehearsed pattern player plays: one rumble, as a pattern file's continuous event.
    static let rehearsedPattern = Pattern(events: [
        PatternEvent(kind: .hapticContinuous, time: 0, duration: 0.1, parameters: EventParameters(hapticIntensity: 1, hapticSharpness: 0.5)),
    ])

    /// Rehearses a pattern player's start on `selection`, whose devices rehearse: most of a
    /// start's code is its own (its outputs, the start's bookkeeping, the scheduler's program)
    /// beside the level it writes. The player is made, started, stopped and released here; its
    /// ending goes to nobody: handed back here before the engine runs, by housekeeping after.
    private func rehearsePlayer(on selection: DeviceSelection) {
        do {
            let player = try makePlayer(pattern: Self.rehearsedPattern, on: selection)
            player.usesHDHaptics = false
            _ = player.start()
            _ = player.stop()
        } catch {
            return
        }
        _ = awaitPass(scheduler.processingMark(), until: scheduler.currentTime() + .seconds(1))
        if !isRunning { deliverPlayerCompletions() }
    }
}
