/// A voice placed on a pattern's timeline.
public struct ScheduledVoice: Sendable {
    /// Index of the audio event in `Pattern.events` that made the voice.
    public var eventIndex: Int
    /// Where the voice's first frame lies, in frames from the pattern start: time × rate, rounded.
    public var frameOffset: Int
    /// The same place as a span from the pattern start (the event's time, to the nanosecond).
    public var timeOffset: Duration
    /// The sound.
    public var voice: AudioVoice

    /// Creates a placed voice.
    public init(eventIndex: Int, frameOffset: Int, timeOffset: Duration, voice: AudioVoice) {
        self.eventIndex = eventIndex
        self.frameOffset = frameOffset
        self.timeOffset = timeOffset
        self.voice = voice
    }
}
