import HapticsPatterns
import HapticsRendering
import HapticsScheduler
import Synchronization

/// One vocabulary item with, per scheduler channel, the player of its program rendered for that
/// channel's device.
///
/// The per-channel slots live in fixed-capacity storage sized to the scheduler's channel capacity,
/// written by the control side before the channel is published in the engine's `ChannelRoster`
/// (again when a channel serves another device); a play reads them without locks or allocation,
/// inside a roster snapshot (`ChannelRoster.holds`) so that it never mixes two devices' slots.
final class VocabularyEntry: @unchecked Sendable {
    /// The item (impacts at intensity 1; the requested intensity is sent as a parameter).
    let feedback: Feedback
    /// The item's position in `Feedback.vocabulary` (and in the engine's sound cue voices).
    let index: Int
    /// Monotonic nanoseconds until which a `prepare()` holds; 0 = not prepared.
    let preparedUntil = Atomic<Int64>(0)
    /// The intensity the item was last played at, in steps of `HapticEngine.intensityStep` (1…16;
    /// 16 before any play): the level a `prepare()` makes sure of first.
    let lastIntensityStep = Atomic<Int>(HapticEngine.intensitySteps)
    let capacity: Int
    /// Per channel: the player's raw id.
    private let players: UnsafeMutablePointer<Atomic<UInt64>>
    /// Per channel: lead time (ns) << 2 | hardware gain << 1 | playable.
    private let details: UnsafeMutablePointer<Atomic<Int64>>

    init(feedback: Feedback, index: Int, channelCapacity: Int) {
        self.feedback = feedback
        self.index = index
        capacity = channelCapacity
        players = .allocate(capacity: channelCapacity)
        details = .allocate(capacity: channelCapacity)
        for channel in 0..<channelCapacity {
            (players + channel).initialize(to: Atomic(0))
            (details + channel).initialize(to: Atomic(0))
        }
    }

    deinit {
        players.deinitialize(count: capacity)
        players.deallocate()
        details.deinitialize(count: capacity)
        details.deallocate()
    }

    /// The slot of `channel`. Valid for channels the roster has published; check the snapshot
    /// still holds after reading it.
    func slot(_ channel: Int) -> VocabularySlot {
        let player = players[channel].load(ordering: .sequentiallyConsistent)
        let detail = details[channel].load(ordering: .sequentiallyConsistent)
        return VocabularySlot(player: PlayerID(rawValue: player), leadTime: detail >> 2,
                              playable: detail & 1 != 0, hardwareGain: detail & 2 != 0)
    }

    /// Writes the slot of a channel that is not live. Control side.
    func fill(_ channel: Int, with slot: VocabularySlot) {
        players[channel].store(slot.player.rawValue, ordering: .sequentiallyConsistent)
        // Lead times are at most a second (`DeviceProfile.spanRange`): far inside 62 bits.
        details[channel].store(slot.leadTime << 2 | (slot.hardwareGain ? 2 : 0) | (slot.playable ? 1 : 0),
                               ordering: .sequentiallyConsistent)
    }

    /// What a play of the item on `channel` needs, when the channel is live (or rehearsing, for the
    /// thread that rehearses it: `ChannelRoster.admits(_:)`), enabled and one of
    /// `devices` and the item is playable there; `nil` otherwise. Everything is read from one
    /// publication of the channel (its roster snapshot still holds after the reads), so a slot read
    /// while the channel changed devices is never used. Lock-free; no allocation.
    @inline(__always)
    func playable(on channel: Int, _ roster: ChannelRoster, devices: DeviceSelection) -> PlayableChannel? {
        let snapshot = roster.snapshot(channel)
        guard roster.admits(snapshot), roster.isEnabled(channel), devices.contains(roster.deviceID(channel)) else {
            return nil
        }
        let found = PlayableChannel(slot: slot(channel), deviceGain: roster.gain(channel), real: roster.isReal(channel))
        guard roster.holds(channel, snapshot), found.slot.playable else { return nil }
        return found
    }

    /// The longest lead time over the live, enabled, playable channels of `devices`, nanoseconds:
    /// "as soon as possible" is felt this long from now. Lock-free; no allocation.
    func maximumLeadTime(_ roster: ChannelRoster, devices: DeviceSelection = .all) -> Int64 {
        var longest: Int64 = 0
        for channel in 0..<roster.upperBound {
            if let found = playable(on: channel, roster, devices: devices) { longest = max(longest, found.slot.leadTime) }
        }
        return longest
    }
}

/// A vocabulary item's slot on a channel it can play on, with the channel's device gain and
/// whether the device is real, all of one publication (`VocabularyEntry.playable(on:_:devices:)`).
struct PlayableChannel {
    var slot: VocabularySlot
    var deviceGain: Double
    var real: Bool
}

/// What a vocabulary item needs to play on one channel: plain values, copied without retain.
struct VocabularySlot {
    /// The scheduler player bound to the item's program on this channel.
    var player = PlayerID(rawValue: 0)
    /// How early the program starts before its felt onset on this device, nanoseconds (a play
    /// reads it on the caller's thread, next to `MonotonicInstant.nanoseconds`).
    var leadTime: Int64 = 0
    /// Whether the program has anything this device can feel.
    var playable = false
    /// Whether the device applies the engine gain itself (`FF_GAIN`): then the intensity
    /// parameter stays at the requested intensity, and prepared levels stay prepared.
    var hardwareGain = false
}
