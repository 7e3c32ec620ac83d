import HapticsSystem

/// How a file or null sink relates its stream to the clock.
public enum AudioSinkTiming: Sendable, Hashable {
    /// Like a device: the stream starts when the sink opens and plays at its rate on
    /// `CLOCK_MONOTONIC`; `write` waits while the buffer is full. For live use.
    case realtime
    /// Faster than real time and deterministic: stream position *p* is audible at exactly
    /// `start + p / rate`, and `write` never waits. For offline rendering and tests.
    case offline(start: MonotonicInstant)
}
