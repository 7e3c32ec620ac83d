import HapticsPatterns
import HapticsRendering
import HapticsScheduler
import Synchronization

/// One vocabulary item with, per scheduler channel, the player of its program rendered for that
/// channel's device.
///
/// The per-channel slots live in fixed-capacity storage sized to the scheduler's channel capacity,
/// written once by the control side before the channel is published in the engine's
/// `ChannelRoster`; a play reads them without locks or allocation. Slots are never rewritten
/// (a channel's index is never reused), so a reader can never see a torn slot.
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
    private let slots: UnsafeMutablePointer<VocabularySlot>

    init(feedback: Feedback, index: Int, channelCapacity: Int) {
        self.feedback = feedback
        self.index = index
        capacity = channelCapacity
        slots = .allocate(capacity: channelCapacity)
        slots.initialize(repeating: VocabularySlot(), count: channelCapacity)
    }

    deinit {
        slots.deinitialize(count: capacity)
        slots.deallocate()
    }

    /// The slot of `channel`. Valid for channels the roster has published.
    func slot(_ channel: Int) -> VocabularySlot { slots[channel] }

    /// Writes the slot of a channel that is not yet published. Control side.
    func fill(_ channel: Int, with slot: VocabularySlot) {
        slots[channel] = slot
    }

    /// The longest lead time over the live, playable channels, nanoseconds: "as soon as possible"
    /// is felt this long from now. Lock-free; no allocation.
    func maximumLeadTime(_ roster: ChannelRoster) -> Int64 {
        var longest: Int64 = 0
        for channel in 0..<roster.upperBound where roster.isLive(channel) {
            let slot = slots[channel]
            if slot.playable, slot.leadTime > longest { longest = slot.leadTime }
        }
        return longest
    }
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
