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
        clipByteCount + AudioRenderer.storageByteCount(for: pattern)
    }

    /// The memory the clips hold, in bytes, each distinct one once.
    public var clipByteCount: Int {
        var seen = Set<ObjectIdentifier>()
        var bytes = 0
        for clip in clips.values where seen.insert(ObjectIdentifier(clip.storage)).inserted {
            bytes += clip.byteCount
        }
        return bytes
    }

    /// The pattern with its clips converted to `sampleRate` by `resampler`, each distinct clip
    /// once (as the loader read a file used by several events once).
    public func converted(to sampleRate: Int, resampler: Resampler = Resampler()) -> AudioPattern {
        guard sampleRate != self.sampleRate else { return self }
        var byClip: [ObjectIdentifier: AudioClip] = [:]
        var converted = self
        converted.sampleRate = sampleRate
        converted.clips = clips.mapValues { clip in
            let key = ObjectIdentifier(clip.storage)
            if let done = byClip[key] { return done }
            let done = AudioClip(sampleRate: sampleRate, channelCount: clip.channelCount,
                                 samples: resampler.resample(clip.samples, channelCount: clip.channelCount,
                                                             from: clip.sampleRate, to: sampleRate))
            byClip[key] = done
            return done
        }
        return converted
    }

    /// Whether the pattern makes any sound.
    public var hasSound: Bool { pattern.events.contains { !$0.kind.isHaptic } }
}
