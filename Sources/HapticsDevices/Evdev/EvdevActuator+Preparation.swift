import CEvdev
import Glibc
import HapticsRendering
import HapticsScheduler
import HapticsSystem

extension EvdevActuator {
    /// Uploads every distinct non-silent level of `program` that is not prepared yet (`EVIOCSFF`,
    /// kernel-assigned id kept), and marks the program's levels as used now. Control side: may
    /// block (a uinput device answers uploads from its own thread).
    ///
    /// When the table is full, an entry that is neither playing nor a level of `program` is erased
    /// first (`EVIOCRMFF`): one only prepared ahead (``prepareAhead(_:)``) and not used since, else
    /// the least recently used. When no entry can be freed (the program alone has more levels than
    /// the table holds), the remaining levels are left to the streaming effect. `ENOSPC` (another
    /// process holds slots of the device) also evicts and retries; when nothing is left to evict it
    /// is thrown. Does nothing after ``close()``.
    ///
    /// - Throws: ``DeviceError/deviceLost(path:_:)`` when the device is gone,
    ///   ``DeviceError/systemCall(path:_:)`` when an upload is refused.
    public func prepare(_ program: Program) throws(DeviceError) {
        _ = try _prepare(program, ahead: false)
    }

    /// Prepares the levels of `program` ahead of a play that may come (the other intensities of a
    /// prepared item): like ``prepare(_:)``, but only into table entries that are free now. Nothing
    /// is erased for it, an `ENOSPC` ends it quietly, and what it uploads is the first to go when
    /// ``prepare(_:)`` needs room, until a `prepare` asks for it. Levels already prepared are marked
    /// as used now. Returns whether every level of `program` is prepared now. Control side.
    ///
    /// - Throws: ``DeviceError/deviceLost(path:_:)`` when the device is gone,
    ///   ``DeviceError/systemCall(path:_:)`` when an upload is refused for another reason.
    @discardableResult
    public func prepareAhead(_ program: Program) throws(DeviceError) -> Bool {
        try _prepare(program, ahead: true)
    }

    /// ``prepare(_:)`` (`ahead` false) and ``prepareAhead(_:)`` (`ahead` true). Returns whether
    /// every level of `program` is in the table now.
    private func _prepare(_ program: Program, ahead: Bool) throws(DeviceError) -> Bool {
        let levels = Self.levels(of: program)
        return try control.withLock { (state) throws(DeviceError) -> Bool in
            guard !state.isClosed else { return false }
            try _throwIfLost()
            for level in levels {
                state.longestHolds[level.key] = max(state.longestHolds[level.key] ?? 0, level.hold)
                state.longestHold = max(state.longestHold, level.hold)
            }
            let streaming = max(minimumStreamingNanoseconds, state.longestHold + safetyMarginNanoseconds)
            streamingLength.store(Self.milliseconds(streaming), ordering: .relaxed)

            let now = clock.now()
            let programKeys = Set(levels.map(\.key))
            var complete = true
            levels: for level in levels {
                let length = Self.milliseconds(state.longestHolds[level.key, default: 0] + safetyMarginNanoseconds)
                if let index = table.index(of: level.key) {
                    // Asked for now: no longer a level only prepared ahead. Prepared ahead again: the
                    // mark moves with the use, so it still counts as unused since.
                    state.preparedAheadAt[index] = ahead && _isOnlyPreparedAhead(index, state: state) ? now.nanoseconds : nil
                    table.touch(index, at: now)
                    // A longer hold than the safety net allows: update in place (same id) when idle.
                    if state.uploadedLengths[index] < length, table.claim(index, from: .ready) {
                        var effect = ff_effect()
                        effect.id = table.effectID(index)
                        _EffectLevel.fill(&effect, key: level.key, lengthMilliseconds: UInt16(length))
                        do throws(SystemCallError) {
                            try _upload(&effect)
                        } catch {
                            table.restore(index)
                            throw _deviceError(error)
                        }
                        state.uploadedLengths[index] = length
                        table.publish(index, key: level.key, effectID: effect.id, lengthMilliseconds: length, usedAt: now)
                    }
                    continue
                }
                let claimed = ahead ? _claimFreeEntry() : _claimEntry(excluding: programKeys, state: &state)
                guard let index = claimed else {
                    complete = false
                    // Ahead of time nothing is evicted: with no free entry the rest cannot fit either.
                    if ahead { break levels }
                    _ActuatorCounters.bump(counters.levelsLeftToStreaming)
                    continue
                }
                var effect = ff_effect()
                _EffectLevel.fill(&effect, key: level.key, lengthMilliseconds: UInt16(length))
                while true {
                    effect.id = -1
                    do throws(SystemCallError) {
                        try _upload(&effect)
                        break
                    } catch where error.errno == .noSpace {
                        _ActuatorCounters.bump(counters.noSpaceErrors)
                        if ahead {
                            // Slots held elsewhere: a level only prepared ahead is not worth one of ours.
                            table.free(index)
                            complete = false
                            break levels
                        }
                        // Slots held elsewhere: give one of ours back, if any may go, and retry.
                        guard _evictOne(excluding: programKeys, keeping: index, state: &state) else {
                            table.free(index)
                            throw _deviceError(error)
                        }
                    } catch {
                        table.free(index)
                        throw _deviceError(error)
                    }
                }
                state.uploadedLengths[index] = length
                state.preparedAheadAt[index] = ahead ? now.nanoseconds : nil
                table.publish(index, key: level.key, effectID: effect.id, lengthMilliseconds: length, usedAt: now)
            }
            return complete
        }
    }

    /// The last use (play or prepare) of the least recently used level prepared now, a level
    /// playing counting as used now; `nil` when none is prepared. Control side.
    public var oldestPreparationUse: MonotonicInstant? {
        control.withLock { state -> MonotonicInstant? in
            guard !state.isClosed, loss.load(ordering: .acquiring) == 0 else { return nil }
            let now = clock.now().nanoseconds
            let uses = (0..<table.capacity).compactMap { index -> Int64? in
                switch table.phase(index) {
                case .ready: table.lastUsed(index)
                // In use: it cannot expire before it has stopped, a lifetime from now at the soonest.
                case .playing: now
                case .free, .busy: nil
                }
            }
            return uses.min().map { MonotonicInstant(nanoseconds: $0) }
        }
    }

    /// Erases every prepared level not used (played or prepared) since `instant`, freeing its slot.
    /// Levels playing now stay. Control side.
    public func expirePreparations(unusedSince instant: MonotonicInstant) {
        control.withLock { state in
            guard !state.isClosed, loss.load(ordering: .acquiring) == 0 else { return }
            for index in 0..<table.capacity where table.lastUsed(index) < instant.nanoseconds {
                guard table.claim(index, from: .ready) else { continue }
                state.longestHolds[table.key(index)] = nil
                _erase(table.effectID(index))
                table.free(index)
            }
            // Holds of levels that only ever streamed would otherwise pile up over a long session.
            let kept = Set((0..<table.capacity).filter { table.phase($0) != .free }.map { table.key($0) })
            state.longestHolds = state.longestHolds.filter { kept.contains($0.key) }
        }
    }

    /// Sets the device gain (`FF_GAIN`, `gain` 0…1 → 0…0xFFFF, truncated: 0.5 → 0x7FFF) with one
    /// `write()`. ff-memless scales every effect's magnitudes by it. Control side.
    ///
    /// - Throws: ``DeviceError/systemCall(path:_:)`` with `EINVAL` when the device has no `FF_GAIN`
    ///   (the kernel would silently ignore it), ``DeviceError/deviceLost(path:_:)`` when it is gone.
    ///
    /// The corresponding C function is `write`.
    public func setGain(_ gain: Double) throws(DeviceError) {
        guard device.info.supportsGain else {
            throw .systemCall(path: device.path, SystemCallError(call: "FF_GAIN", errno: .invalidArgument))
        }
        let value = Int32((min(max(gain.isNaN ? 0 : gain, 0), 1) * 65_535).rounded(.down))
        try control.withLock { (state) throws(DeviceError) in
            guard !state.isClosed else { return }
            try _throwIfLost()
            do throws(SystemCallError) {
                _ActuatorCounters.bump(counters.controlWrites)
                try device.descriptor.writeInputEvent(type: UInt16(EV_FF), code: UInt16(FF_GAIN), value: value)
            } catch {
                throw _deviceError(error)
            }
        }
    }

    // MARK: Plumbing (control side, under the mutex)

    /// A free entry, or the first evictable one in eviction order (``_evictionOrder(_:state:)``),
    /// claimed for uploading; `nil` when every entry is playing or holds a level of the program
    /// being prepared.
    func _claimEntry(excluding keys: Set<UInt64>, state: inout _ControlState) -> Int? {
        if let index = _claimFreeEntry() { return index }
        let candidates = (0..<table.capacity).filter { table.phase($0) == .ready && !keys.contains(table.key($0)) }
        for index in _evictionOrder(candidates, state: state) {
            guard table.claim(index, from: .ready) else { continue }  // Started playing meanwhile.
            state.longestHolds[table.key(index)] = nil
            _erase(table.effectID(index))
            _ActuatorCounters.bump(counters.evictions)
            return index
        }
        return nil
    }

    /// A free entry claimed for uploading, or `nil` when none is free.
    func _claimFreeEntry() -> Int? {
        for index in 0..<table.capacity where table.claim(index, from: .free) { return index }
        return nil
    }

    /// Evicts one entry other than `kept` (after `ENOSPC`); whether one could go.
    func _evictOne(excluding keys: Set<UInt64>, keeping kept: Int, state: inout _ControlState) -> Bool {
        let candidates = (0..<table.capacity).filter {
            $0 != kept && table.phase($0) == .ready && !keys.contains(table.key($0))
        }
        for index in _evictionOrder(candidates, state: state) {
            guard table.claim(index, from: .ready) else { continue }
            state.longestHolds[table.key(index)] = nil
            _erase(table.effectID(index))
            table.free(index)
            _ActuatorCounters.bump(counters.evictions)
            return true
        }
        return false
    }

    /// `candidates` in the order they may go: levels only prepared ahead and unused since, then
    /// the rest; least recently used first within each.
    func _evictionOrder(_ candidates: [Int], state: _ControlState) -> [Int] {
        candidates.sorted {
            let (first, second) = (_isOnlyPreparedAhead($0, state: state), _isOnlyPreparedAhead($1, state: state))
            return first != second ? first : table.lastUsed($0) < table.lastUsed($1)
        }
    }

    /// Whether entry `index` was prepared ahead and neither asked for by ``prepare(_:)`` nor
    /// played since (a play moves its last use).
    func _isOnlyPreparedAhead(_ index: Int, state: _ControlState) -> Bool {
        guard let preparedAt = state.preparedAheadAt[index] else { return false }
        return table.lastUsed(index) == preparedAt
    }

    /// `EVIOCSFF` on the control side; the kernel writes the id back into `effect`.
    func _upload(_ effect: inout ff_effect) throws(SystemCallError) {
        _ActuatorCounters.bump(counters.preparedUploads)
        try device.descriptor.uploadEffect(&effect)
    }

    func _throwIfLost() throws(DeviceError) {
        if let lossError { throw .deviceLost(path: device.path, lossError) }
    }

    func _deviceError(_ error: SystemCallError) -> DeviceError {
        if error.errno == .operationNotSupportedByDevice { _failed(error.call == "write" ? .write : .upload, error.errno) }
        return DeviceError(path: device.path, failure: error)
    }

    /// The distinct non-silent levels of `program` in order of first appearance, each with its
    /// longest hold: the time from a command to the next command of the program.
    static func levels(of program: Program) -> [(key: UInt64, hold: Int64)] {
        var order: [UInt64] = []
        var holds: [UInt64: Int64] = [:]
        let commands = program.commands
        for (index, timed) in commands.enumerated() {
            let key = _EffectLevel.key(timed.command)
            guard key != 0 else { continue }
            let end = index + 1 < commands.count ? commands[index + 1].offsetNanoseconds : program.durationNanoseconds
            // A program built by hand may hold any offsets: a hold that overflows is as long as any.
            let (span, overflowed) = end.subtractingReportingOverflow(timed.offsetNanoseconds)
            let hold = overflowed ? (end > timed.offsetNanoseconds ? Int64.max / 2 : 0) : min(max(0, span), Int64.max / 2)
            if holds[key] == nil { order.append(key) }
            holds[key] = max(holds[key] ?? 0, hold)
        }
        return order.map { ($0, holds[$0]!) }
    }
}
