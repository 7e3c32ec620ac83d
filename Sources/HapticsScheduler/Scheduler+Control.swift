import HapticsRendering
import HapticsSystem

extension Scheduler {
    /// Adds an actuator channel: where its commands go, the profile its dynamic parameters re-map
    /// with (``DeviceProfile/clamped``, as rendering uses it), and how overlapping players combine.
    /// A `dropStale` lateness below zero counts as zero. Control side.
    ///
    /// - Throws: ``SchedulerError/tooManyChannels(maximum:)`` when all `maximumChannels` channels
    ///   exist.
    package func addChannel(
        output: any Actuator, profile: DeviceProfile, policy: OverlapPolicy = .replace
    ) throws(SchedulerError) -> ChannelID {
        try control.withLock { (_: inout ControlBook) throws(SchedulerError) -> ChannelID in
            guard let index = channelTable.add(ChannelSlot(output: output, profile: profile.clamped, policy: policy)) else {
                throw .tooManyChannels(maximum: configuration.maximumChannels)
            }
            return ChannelID(rawValue: index)
        }
    }

    /// The number of channels added so far.
    package var channelTotal: Int { channelTable.count.pointee.load(ordering: .acquiring) }

    /// Copies `program`'s commands into storage the processing side reads without locks. Control side.
    ///
    /// - Throws: ``SchedulerError/tooManyPrograms(maximum:)`` when every program slot is in use;
    ///   ``SchedulerError/commandOffsetOutOfRange(index:offsetNanoseconds:)`` or
    ///   ``SchedulerError/programDurationOutOfRange(_:)`` when the program's offsets are not sorted
    ///   within 0…``SchedulerLimits/maximumProgramLength`` or its duration is not (what the realtime
    ///   arithmetic is bounded by).
    package func load(_ program: Program) throws(SchedulerError) -> ProgramID {
        try Self.validate(program)
        return try control.withLock { (book: inout ControlBook) throws(SchedulerError) -> ProgramID in
            reclaimRetiredPrograms(&book)
            guard let index = book.programLoaded.indices.first(where: { !book.programLoaded[$0] && !book.programRetiring[$0] }) else {
                throw .tooManyPrograms(maximum: configuration.maximumPrograms)
            }
            let count = program.commands.count
            let storage = UnsafeMutablePointer<TimedCommand>.allocate(capacity: max(1, count))
            program.commands.withUnsafeBufferPointer { source in
                if let base = source.baseAddress { storage.initialize(from: base, count: count) }
            }
            let endsWithStop = count > 0 && program.commands[count - 1].command == .stop
            // Published to the processing side by the release store of a player binding that names it.
            programTable.entries[index] = ProgramStorage(
                commands: storage, count: count, durationNanoseconds: program.durationNanoseconds,
                loopEnd: endsWithStop ? count - 1 : count)
            book.programLoaded[index] = true
            book.programGenerations[index] &+= 1
            return ProgramID(index: index, generation: book.programGenerations[index])
        }
    }

    /// Unloads a program. Returns `false` (and changes nothing) when the ID is unknown or a player
    /// still uses the program: release those players first. Storage a stopping player may still be
    /// reading is freed by a later control call, once the processing side has let go. Control side.
    @discardableResult
    package func unload(_ program: ProgramID) -> Bool {
        control.withLock { book in
            let index = program.index
            guard index < configuration.maximumPrograms, book.programLoaded[index],
                  book.programGenerations[index] == program.generation else { return false }
            for player in 0..<configuration.maximumPlayers where book.isLive(player: player) && book.playerProgram[player] == index {
                return false
            }
            book.programLoaded[index] = false
            book.programRetiring[index] = true
            reclaimRetiredPrograms(&book)
            return true
        }
    }

    /// Whether `program` names a loaded program.
    package func isLoaded(_ program: ProgramID) -> Bool {
        control.withLock { book in
            program.index < configuration.maximumPrograms && book.programLoaded[program.index]
                && book.programGenerations[program.index] == program.generation
        }
    }

    /// Binds a loaded program to a channel as a new, stopped player. Control side.
    package func makePlayer(program: ProgramID, channel: ChannelID) throws(SchedulerError) -> PlayerID {
        try control.withLock { (book: inout ControlBook) throws(SchedulerError) -> PlayerID in
            reclaimRetiredPrograms(&book)
            let programIndex = program.index
            guard programIndex < configuration.maximumPrograms, book.programLoaded[programIndex],
                  book.programGenerations[programIndex] == program.generation else {
                throw .unknownProgram(program)
            }
            guard channel.rawValue >= 0, channel.rawValue < channelTable.count.pointee.load(ordering: .acquiring) else {
                throw .unknownChannel(channel)
            }
            guard let index = book.playerGenerations.indices.first(where: { !book.isLive(player: $0) }) else {
                throw .tooManyPlayers(maximum: configuration.maximumPlayers)
            }
            book.playerGenerations[index] &+= 1
            book.playerProgram[index] = programIndex
            let generation = book.playerGenerations[index]
            playerTable.bindings[index].store(
                Self.binding(generation: generation, program: programIndex, channel: channel.rawValue),
                ordering: .sequentiallyConsistent)
            return PlayerID(index: index, generation: generation)
        }
    }

    /// Releases a player: it stops (in silence, if nothing else plays on its channel) at the next
    /// processing pass, and its ID stops being accepted. Unknown or already released IDs are ignored.
    /// Control side.
    package func releasePlayer(_ player: PlayerID) {
        let released = control.withLock { book -> Bool in
            let index = player.index
            guard index < configuration.maximumPlayers, book.playerGenerations[index] == player.generation,
                  book.isLive(player: index) else { return false }
            book.playerGenerations[index] &+= 1
            book.playerProgram[index] = -1
            playerTable.bindings[index].store(
                Self.binding(generation: book.playerGenerations[index], program: 0, channel: 0),
                ordering: .sequentiallyConsistent)
            return true
        }
        // A parked realtime thread retires the player promptly.
        if released { wakeRealtimeThread() }
    }

    /// Checks that a program's times stay within ``SchedulerLimits/maximumProgramLength``, in order.
    static func validate(_ program: Program) throws(SchedulerError) {
        let limit = SchedulerLimits.maximumProgramNanoseconds
        let duration = program.durationNanoseconds
        guard duration >= 0 && duration <= limit else { throw .programDurationOutOfRange(.nanoseconds(duration)) }
        var previous: Int64 = 0
        for (index, timed) in program.commands.enumerated() {
            guard timed.offsetNanoseconds >= previous && timed.offsetNanoseconds <= limit else {
                throw .commandOffsetOutOfRange(index: index, offsetNanoseconds: timed.offsetNanoseconds)
            }
            previous = timed.offsetNanoseconds
        }
    }

    static func binding(generation: UInt32, program: Int, channel: Int) -> Int {
        Int(generation) << 32 | program << 16 | channel
    }

    /// Frees programs that were unloaded once no player slot reads them any more.
    func reclaimRetiredPrograms(_ book: inout ControlBook) {
        for index in 0..<configuration.maximumPrograms where book.programRetiring[index] {
            var reading = false
            for player in 0..<configuration.maximumPlayers
            where playerTable.programInUse[player].load(ordering: .sequentiallyConsistent) == index {
                reading = true
                break
            }
            guard !reading else { continue }
            programTable.entries[index].commands?.deallocate()
            programTable.entries[index] = .empty
            book.programRetiring[index] = false
        }
    }
}

extension Scheduler {
    /// Releases every live player bound to `channel` (as ``releasePlayer(_:)`` does each), so that
    /// nothing submitted for them reaches the channel again; returns how many there were. Control
    /// side. Use it before the channel serves another device: once ``hasPassed(_:)`` says a
    /// ``processingMark()`` taken after this call is passed, the processing side has retired them
    /// all (their final stop included) and never names them again.
    @discardableResult
    package func releasePlayers(on channel: ChannelID) -> Int {
        let players = livePlayers(on: channel)
        for player in players { releasePlayer(player) }
        return players.count
    }

    /// Stops every live player bound to `channel` at `time` (as ``stop(_:at:)`` does each), so the
    /// channel goes silent; `false` when the queue could not take them all. Control side.
    @discardableResult
    package func stopPlayers(on channel: ChannelID, at time: MonotonicInstant) -> Bool {
        let players = livePlayers(on: channel)
        return players.allSatisfy { stop($0, at: time) }
    }

    /// The live players bound to `channel`.
    func livePlayers(on channel: ChannelID) -> [PlayerID] {
        control.withLock { book -> [PlayerID] in
            (0..<configuration.maximumPlayers).compactMap { index in
                guard book.isLive(player: index) else { return nil }
                let binding = playerTable.bindings[index].load(ordering: .relaxed)
                guard binding & 0xFFFF == channel.rawValue else { return nil }
                return PlayerID(index: index, generation: UInt32(truncatingIfNeeded: binding >> 32))
            }
        }
    }

    /// A point in the processing side's progress: passed once a processing pass that began after
    /// this call has ended. Control side; lock-free.
    package func processingMark() -> ProcessingMark {
        // Read the owner word first: a pass in progress now may have begun before the caller's change, so
        // the one after it must end too; passes ending after a moment with none in progress began
        // after the change.
        let inPass = isProcessingTaken
        let completed = completedPassCount.load(ordering: .sequentiallyConsistent)
        return ProcessingMark(pass: completed + (inPass ? 2 : 1))
    }

    /// Gives `channel` another profile (``DeviceProfile/clamped``) for the players bound to it from
    /// now on: how their dynamic parameters re-map. Control side.
    ///
    /// - Throws: ``SchedulerError/channelInUse(_:)`` while a live player is bound to the channel or
    ///   processing has not passed `mark` (taken after the channel's last players were released:
    ///   until then processing may still read the profile for them);
    ///   ``SchedulerError/unknownChannel(_:)`` for a channel that does not exist.
    package func setChannelProfile(_ channel: ChannelID, _ profile: DeviceProfile, after mark: ProcessingMark) throws(SchedulerError) {
        try control.withLock { (book: inout ControlBook) throws(SchedulerError) in
            guard channel.rawValue >= 0, channel.rawValue < channelTable.count.pointee.load(ordering: .acquiring) else {
                throw .unknownChannel(channel)
            }
            guard hasPassed(mark) else { throw .channelInUse(channel) }
            for index in 0..<configuration.maximumPlayers where book.isLive(player: index)
            && playerTable.bindings[index].load(ordering: .relaxed) & 0xFFFF == channel.rawValue {
                throw .channelInUse(channel)
            }
            // Published to processing by the binding store of the next player made for the channel.
            (channelTable.slots + channel.rawValue).pointee.profile = profile.clamped
        }
    }

    /// Asks for a processing pass now: wakes a parked realtime thread (nothing happens when none
    /// is parked, or none runs; every immediate group ends with a pass anyway). What passes a
    /// ``processingMark()`` when nothing else is due. Lock-free.
    package func requestProcessingPass() {
        wakeRealtimeThread()
    }

    /// Whether a processing pass that began after `mark` was taken has ended.
    package func hasPassed(_ mark: ProcessingMark) -> Bool {
        completedPassCount.load(ordering: .acquiring) >= mark.pass
    }
}

/// A point in a scheduler's processing, from ``Scheduler/processingMark()``.
package struct ProcessingMark: Sendable, Hashable {
    /// The completed-pass count at which the mark is passed.
    let pass: UInt64
}
