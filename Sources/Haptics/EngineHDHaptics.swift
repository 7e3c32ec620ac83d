import HapticsRendering
import HapticsScheduler
import HapticsSystem
import HapticsVoiceCoils
import Synchronization

/// The voice coils of an engine's pads that play patterns as HD haptics: each opened the first
/// time a pattern player prepares or starts on it (its hidraw node, over USB its sound card and
/// stream), kept until the engine stops, the pad is lost or its settings change.
///
/// Each open pad has a timeline channel of its own in the scheduler: a channel whose output writes
/// nothing. A player playing HD haptics on the pad plays its program there instead of on the pad's
/// rumble channel, so its lifecycle (position, loops, rate, pause, completion) is the scheduler's
/// as on any device, while the waveform goes to the pad's voice coils on the same clock. The
/// channel replaces what plays on it, as the pad's stream does: one pattern at a time.
final class EngineHDHaptics: Sendable {
    /// One open pad.
    struct Pad: Sendable {
        let haptics: DualSenseHDHaptics
        /// The scheduler channel the pad's HD players keep their timeline on.
        let timeline: ChannelID
    }

    private struct State {
        var pads: [HapticDevice.ID: Pad] = [:]
        /// Why a pad's voice coils could not be opened, until its settings change or the engine
        /// starts again.
        var failures: [HapticDevice.ID: HDHapticsError] = [:]
        /// Timeline channels of pads closed since, for the next pad to open.
        var spare: [ChannelID] = []
        /// What each pad plays now, and the intensity it plays at before the gains.
        var current: [HapticDevice.ID: (play: HDPlay, intensity: Double)] = [:]
        var accepting = false
    }

    private let state = OrderedMutex(State())
    /// Counts the closes: what was made on a pad's open voice coils (a live sound feed's drive)
    /// holds while it has not moved. Read without a lock.
    let generation = Atomic<Int>(0)

    /// The profile of a pad's timeline channel: the pad's, without a rise time or an overdrive.
    /// A voice coil moves with the waveform, so nothing is sent early: a start due now is felt now,
    /// and one at an instant starts its waveform there.
    static func timelineProfile(for profile: DeviceProfile) -> DeviceProfile {
        var timeline = profile
        timeline.riseTime = .zero
        timeline.overdrive = .zero
        return timeline
    }

    /// Lets pads be opened (the engine started).
    func open() {
        state.withLock {
            $0.accepting = true
            $0.failures = [:]
        }
    }

    /// The open pad of `device`, opened now when it has voice coils, its settings ask for HD
    /// haptics and the engine runs; `nil` otherwise (a failure to open is kept: ``failure(of:)``).
    func pad(for device: HapticDevice, ignoringSettings: Bool = false, rumbleWrites: (@Sendable () -> Int)?,
             claimingTimeline claim: () throws(EngineError) -> ChannelID) -> Pad? {
        guard device.hasVoiceCoils, ignoringSettings || device.settings.hdHaptics, device.state.isAvailable else { return nil }
        let known = state.withLock { state -> (pad: Pad?, skip: Bool) in
            (state.pads[device.id], !state.accepting || state.failures[device.id] != nil)
        }
        if let pad = known.pad { return pad }
        guard !known.skip else { return nil }
        // Opened outside the lock: it reads sysfs, opens the card and starts a thread.
        let haptics: DualSenseHDHaptics
        do throws(HDHapticsError) {
            haptics = try DualSenseHDHaptics(device: device, audioCard: device.settings.audioCard, rumbleWrites: rumbleWrites)
        } catch {
            state.withLock { $0.failures[device.id] = error }
            return nil
        }
        let reused = state.withLock { $0.spare.popLast() }
        let timeline: ChannelID
        if let reused {
            timeline = reused
        } else {
            guard let claimed = try? claim() else {
                haptics.close()
                return nil
            }
            timeline = claimed
        }
        let pad = Pad(haptics: haptics, timeline: timeline)
        let kept = state.withLock { state -> Pad? in
            guard state.accepting else { return nil }
            if let raced = state.pads[device.id] { return raced }
            state.pads[device.id] = pad
            return pad
        }
        if kept?.haptics !== haptics {
            haptics.close()
            state.withLock { $0.spare.append(timeline) }
        }
        return kept
    }

    /// The pad of `device` if it is open.
    func openPad(_ device: HapticDevice.ID) -> Pad? {
        state.withLock { $0.pads[device] }
    }

    /// Why the voice coils of `device` could not be opened, if they could not.
    func failure(of device: HapticDevice.ID) -> HDHapticsError? {
        state.withLock { $0.failures[device] }
    }

    /// The open pads.
    var openPads: [(device: HapticDevice.ID, pad: Pad)] {
        state.withLock { $0.pads.map { ($0.key, $0.value) } }
    }

    /// Records `play` as what `device` plays now, at `intensity` before the engine's and the pad's gains.
    func setCurrent(_ play: HDPlay, intensity: Double, on device: HapticDevice.ID) {
        state.withLock { $0.current[device] = (play, intensity) }
    }

    /// What each pad plays now, and its intensity before the gains.
    var currentPlays: [(device: HapticDevice.ID, play: HDPlay, intensity: Double)] {
        state.withLock { $0.current.map { ($0.key, $0.value.play, $0.value.intensity) } }
    }

    /// Silences every open pad now; they stay open.
    func stopAll() {
        for (_, pad) in openPads { pad.haptics.stop() }
    }

    /// Closes `device`'s voice coils (its stream stops) and forgets why they failed, so that the
    /// next play opens them again as its settings say.
    func close(_ device: HapticDevice.ID) {
        let pad = state.withLock { state -> Pad? in
            state.failures[device] = nil
            state.current[device] = nil
            guard let pad = state.pads.removeValue(forKey: device) else { return nil }
            generation.add(1, ordering: .releasing)
            state.spare.append(pad.timeline)
            return pad
        }
        pad?.haptics.close()
    }

    /// Closes every pad and opens none until ``open()``.
    func closeAll() {
        let all = state.withLock { state -> [Pad] in
            defer {
                state.pads = [:]
                state.current = [:]
            }
            state.accepting = false
            generation.add(1, ordering: .releasing)
            state.spare += state.pads.values.map(\.timeline)
            return Array(state.pads.values)
        }
        for pad in all { pad.haptics.close() }
    }
}

/// The output of a timeline channel: the pad's voice coils play the waveform, so the levels the
/// scheduler computes for the channel go nowhere.
final class TimelineOnlyOutput: Actuator {
    func perform(_ command: ActuatorCommand, channel: ChannelID, deadline: MonotonicInstant, now: MonotonicInstant) {}
}
