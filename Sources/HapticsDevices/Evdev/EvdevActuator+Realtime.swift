import CEvdev
import CHapticsSystem
import Glibc
import HapticsRendering
import HapticsScheduler
import HapticsSystem

extension EvdevActuator {
    /// Plays `command` now. Realtime-safe: no allocation, no lock, no logging.
    ///
    /// - silence: one `write()` (stop the playing effect), none when nothing plays;
    /// - a prepared level: one `write()` (play; when another level plays, its stop and this play
    ///   are two events of that one `write()`);
    /// - any other level: an in-place `EVIOCSFF` of the streaming effect, then a play `write()`
    ///   (with the stop of a prepared level playing now in it), also when the streaming effect
    ///   plays already (see `_stream`);
    /// - the level that plays already (a renewal): one play `write()` of its effect, which restarts
    ///   its `replay.length`.
    /// After close or loss, nothing (the command is counted as dropped).
    public func perform(_ command: ActuatorCommand, channel: ChannelID, deadline: MonotonicInstant, now: MonotonicInstant) {
        guard _enter() else {
            _ActuatorCounters.bump(counters.droppedCommands)
            return
        }
        defer { isPerforming.store(false, ordering: .releasing) }
        _ActuatorCounters.advance(counters.commands)
        _play(_EffectLevel.key(command), now: now)
        let state = realtime.pointee
        expiry.store(state.playingEntry >= 0 || state.streamPlaying ? state.expiresAt : .min, ordering: .relaxed)
    }

    /// How long the level playing now lasts on its own: until its `replay.length` since its last
    /// play runs out (`nil` when nothing plays, after close or loss). Realtime-safe: two loads.
    public func lifetimeOfPerformedLevel(on channel: ChannelID, now: MonotonicInstant) -> Duration? {
        let end = expiry.load(ordering: .relaxed)
        guard end != .min, loss.load(ordering: .relaxed) == 0, !isShutDown.load(ordering: .relaxed) else { return nil }
        return .nanoseconds(end - now.nanoseconds)
    }

    /// Plays level `key` (0: silence) now.
    @inline(__always)
    func _play(_ key: UInt64, now: MonotonicInstant) {
        guard key != 0 else {
            _silence()
            return
        }
        let state = realtime
        // The level that plays already: play again (restarts its safety-net length). One write.
        if state.pointee.playingEntry >= 0, table.key(state.pointee.playingEntry) == key {
            let entry = state.pointee.playingEntry
            table.touch(entry, at: now)
            _ActuatorCounters.advance(counters.preparedTriggers)
            if _write(code: UInt16(bitPattern: table.effectID(entry)), value: 1) {
                state.pointee.expiresAt = now.nanoseconds + table.length(entry)
            }
            return
        }
        let entry = table.claimForPlaying(key)
        if entry >= 0 {
            // Whatever plays now is stopped in the same `write()` as this play: the driver takes
            // both events before its worker runs, so the motors go from one level to the next with
            // no silence between, and the change costs one system call.
            // (The streaming effect never plays beside a prepared level: each stops the other.)
            let previous = state.pointee.playingEntry
            var stopping: UInt16?
            if previous >= 0 {
                stopping = UInt16(bitPattern: table.effectID(previous))
            } else if state.pointee.streamPlaying {
                stopping = UInt16(bitPattern: state.pointee.streamEffect.id)
                state.pointee.streamPlaying = false
            }
            let played = _write(playing: UInt16(bitPattern: table.effectID(entry)), stopping: stopping)
            if previous >= 0 { table.releaseFromPlaying(previous) }
            table.touch(entry, at: now)
            state.pointee.playingEntry = entry
            _ActuatorCounters.advance(counters.preparedTriggers)
            state.pointee.expiresAt = played ? now.nanoseconds + table.length(entry) : .min
            return
        }
        _stream(key, now: now)
    }

    /// Claims a place among running `perform` calls, unless the actuator is closing or lost.
    @inline(__always)
    func _enter() -> Bool {
        isPerforming.store(true, ordering: .sequentiallyConsistent)
        if isShutDown.load(ordering: .sequentiallyConsistent) || loss.load(ordering: .relaxed) != 0 {
            isPerforming.store(false, ordering: .releasing)
            return false
        }
        return true
    }

    /// Stops whatever plays (a table entry or the streaming effect): one write, or none.
    @inline(__always)
    func _silence() {
        let state = realtime
        _stopPlayingEntry()
        if state.pointee.streamPlaying {
            state.pointee.streamPlaying = false
            _ = _write(code: UInt16(bitPattern: state.pointee.streamEffect.id), value: 0)
        }
    }

    /// Plays a level that was not prepared through the streaming effect.
    @inline(__always)
    func _stream(_ key: UInt64, now: MonotonicInstant) {
        let state = realtime
        _ActuatorCounters.advance(counters.streamedLevels)
        // A prepared level playing now is stopped only right before the play below, after any
        // upload (which a uinput device answers from its own thread): the change is two adjacent
        // writes, not a silence as long as the upload.
        if state.pointee.streamKey != key {
            if state.pointee.streamEffect.id >= 0,
               _EffectLevel.compatibilityClass(state.pointee.streamKey) != _EffectLevel.compatibilityClass(key) {
                // The kernel refuses an in-place update that changes the effect type: start over.
                if state.pointee.streamPlaying {
                    state.pointee.streamPlaying = false
                    _ = _write(code: UInt16(bitPattern: state.pointee.streamEffect.id), value: 0)
                }
                _ = _erase(state.pointee.streamEffect.id)
                state.pointee.streamEffect.id = -1
                state.pointee.streamKey = 0
            }
            let length = UInt16(streamingLength.load(ordering: .relaxed))
            _EffectLevel.fill(&state.pointee.streamEffect, key: key, lengthMilliseconds: length)
            _ActuatorCounters.bump(counters.streamingUploads)
            let result = withUnsafeMutablePointer(to: &state.pointee.streamEffect) { effect in
                let descriptor = device.descriptor.rawValue
                return _SystemCall.perform("EVIOCSFF", fileDescriptor: descriptor) {
                    Int(CHapticsSystem_ioctlPointer(descriptor, CEvdev_EVIOCSFF(), effect))
                }
            }
            if case .failure(let errno) = result {
                _failed(.upload, errno)
                if state.pointee.streamKey == 0 { state.pointee.streamEffect.id = -1 }
                // Never leave the previous level playing in place of this one.
                if loss.load(ordering: .relaxed) == 0 { _stopPlayingEntry() }
                if state.pointee.streamPlaying, loss.load(ordering: .relaxed) == 0 {
                    state.pointee.streamPlaying = false
                    _ = _write(code: UInt16(bitPattern: state.pointee.streamEffect.id), value: 0)
                }
                return
            }
            state.pointee.streamKey = key
            state.pointee.streamLength = Int64(length) * 1_000_000
        }
        // A play follows every upload, also the in-place update of the playing effect. ff-memless,
        // the driver core under most gamepads (hid-playstation's DualSense among them), marks an
        // updated effect as not playing and applies the update only at its next timer tick; a stop
        // written before that tick finds nothing playing and is dropped, and the motors keep the
        // old level for good. The play applies the update at once and restarts the length.
        // A prepared level playing now is stopped in the same `write()`.
        let previous = state.pointee.playingEntry
        let wasPlaying = state.pointee.streamPlaying
        state.pointee.playingEntry = -1
        let played = _write(playing: UInt16(bitPattern: state.pointee.streamEffect.id),
                            stopping: previous >= 0 ? UInt16(bitPattern: table.effectID(previous)) : nil)
        // A failed play leaves an updated effect playing: it must still be stopped.
        state.pointee.streamPlaying = played || wasPlaying
        if previous >= 0 { table.releaseFromPlaying(previous) }
        if played { state.pointee.expiresAt = now.nanoseconds + state.pointee.streamLength }
    }

    /// Stops the prepared level playing now, if one does: one write, or none.
    @inline(__always)
    func _stopPlayingEntry() {
        let state = realtime
        guard state.pointee.playingEntry >= 0 else { return }
        let entry = state.pointee.playingEntry
        state.pointee.playingEntry = -1
        _ = _write(code: UInt16(bitPattern: table.effectID(entry)), value: 0)
        table.releaseFromPlaying(entry)
    }

    /// Writes one `EV_FF` event (play `value` 1, stop 0). Returns whether it reached the kernel.
    @inline(__always)
    func _write(code: UInt16, value: Int32) -> Bool {
        var event = input_event()
        event.type = UInt16(EV_FF)
        event.code = code
        event.value = value
        return _writeEvents(&event)
    }

    /// Writes a play of effect `play`, after a stop of effect `stop` when one is given: then the
    /// two are `EV_FF` events of one `write()`, which evdev applies in order within the call.
    /// Returns whether they reached the kernel (a failed call applied neither).
    @inline(__always)
    func _write(playing play: UInt16, stopping stop: UInt16?) -> Bool {
        guard let stop else { return _write(code: play, value: 1) }
        var events = (input_event(), input_event())
        events.0.type = UInt16(EV_FF)
        events.0.code = stop
        events.0.value = 0
        events.1.type = UInt16(EV_FF)
        events.1.code = play
        events.1.value = 1
        return _writeEvents(&events)
    }

    /// One `write()` of `events` (`input_event`s laid out in a row), counted; a failure is booked.
    @inline(__always)
    func _writeEvents<Events>(_ events: inout Events) -> Bool {
        _ActuatorCounters.advance(counters.realtimeWrites)
        if rehearsing.load(ordering: .relaxed) { _rehearsed(&events) }
        let descriptor = device.descriptor.rawValue
        let result = withUnsafeBytes(of: &events) { bytes in
            _SystemCall.perform("write", fileDescriptor: descriptor) {
                Glibc.write(descriptor, bytes.baseAddress, bytes.count)
            }
        }
        if case .failure(let errno) = result {
            _failed(.write, errno)
            return false
        }
        return true
    }

    /// `events` (`input_event`s in a row) with the value -1, which the input core ignores.
    @inline(never)
    func _rehearsed<Events>(_ events: inout Events) {
        withUnsafeMutableBytes(of: &events) { bytes in
            let events = bytes.bindMemory(to: input_event.self)
            for index in events.indices { events[index].value = -1 }
        }
    }

    /// Erases effect `id` (`EVIOCRMFF`). Returns whether the kernel accepted.
    @discardableResult
    func _erase(_ id: Int16) -> Bool {
        _ActuatorCounters.bump(counters.erasures)
        let descriptor = device.descriptor.rawValue
        let result = _SystemCall.perform("EVIOCRMFF", fileDescriptor: descriptor) {
            Int(CHapticsSystem_ioctlInteger(descriptor, CEvdev_EVIOCRMFF(), Int(id)))
        }
        if case .failure(let errno) = result {
            _failed(.erase, errno)
            return false
        }
        return true
    }

    /// Books a failed call: `ENODEV` publishes the loss (first one wins), `ENOSPC` is counted apart.
    @inline(__always)
    func _failed(_ call: _Call, _ errno: Errno) {
        if errno == .operationNotSupportedByDevice {
            let word = call.rawValue << 32 | Int(errno.rawValue)
            if loss.compareExchange(expected: 0, desired: word, ordering: .releasing).exchanged {
                lossRequests.load()?.schedule(at: clock.now())
            }
            return
        }
        if errno == .noSpace { _ActuatorCounters.bump(counters.noSpaceErrors) }
        _ActuatorCounters.bump(counters.failedCalls)
    }
}
