import HapticsPatterns

/// A pattern with the sound of its audio events loaded: every `AudioCustom` event's waveform decoded
/// and converted to the output rate, so playing it can no longer fail on a file.
public struct AudioPattern: Sendable, Hashable {
    /// The pattern.
    public var pattern: Pattern
    /// The output rate the clips were converted to.
    public var sampleRate: Int
    /// The clip of each `AudioCustom` event, by index in `pattern.events`.
    public var clips: [Int: AudioClip]

    /// Creates a loaded pattern. Every `AudioCustom` event needs a clip at ``sampleRate``.
    public init(pattern: Pattern, sampleRate: Int, clips: [Int: AudioClip]) {
        self.pattern = pattern
        self.sampleRate = sampleRate
        self.clips = clips
    }

    /// The memory the pattern's sound holds, in bytes: its clips (each distinct one once, as the
    /// loader reads a file used by several events once) and what its voices keep
    /// (``AudioRenderer/storageByteCount(for:)``). Durations do not count: tones and looped clips
    /// are made as they play.
    public var soundByteCount: Int {
        var seen = Set<ObjectIdentifier>()
        var bytes = AudioRenderer.storageByteCount(for: pattern)
        for clip in clips.values where seen.insert(ObjectIdentifier(clip.storage)).inserted {
            bytes += clip.byteCount
        }
        return bytes
    }

    /// Whether the pattern makes any sound.
    public var hasSound: Bool { pattern.events.contains { !$0.kind.isHaptic } }
}
