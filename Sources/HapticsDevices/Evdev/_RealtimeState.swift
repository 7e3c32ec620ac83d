import CEvdev

/// What the realtime thread knows about the device: which effect plays, and its streaming effect.
struct _RealtimeState {
    /// The table entry playing now, or -1.
    var playingEntry = -1
    /// Whether the streaming effect plays now.
    var streamPlaying = false
    /// The level the streaming effect holds (0: none uploaded yet).
    var streamKey: UInt64 = 0
    /// The streaming effect's `replay.length` as last uploaded, nanoseconds.
    var streamLength: Int64 = 0
    /// When the kernel ends what plays on its own (its last play + its `replay.length`), nanoseconds.
    var expiresAt: Int64 = .min
    /// The streaming effect as last uploaded; `id` -1 until the first upload allocates a slot.
    var streamEffect: ff_effect = {
        var effect = ff_effect()
        effect.id = -1
        return effect
    }()
}
