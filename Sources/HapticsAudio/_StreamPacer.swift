import CHapticsSystem
import HapticsSystem

/// The clock of a sink without hardware: tells where its stream is and, in real time, waits like a
/// device whose buffer is full. Realtime-safe (no allocation; one absolute sleep).
struct _StreamPacer {
    let format: AudioStreamFormat
    let timing: AudioSinkTiming
    private(set) var start: Int64 = 0
    private(set) var framesWritten: Int64 = 0

    init(format: AudioStreamFormat, timing: AudioSinkTiming) {
        self.format = format
        self.timing = timing
    }

    /// Starts the stream; returns the reading for position 0.
    mutating func begin() -> AudioTimestamp {
        switch timing {
        case .realtime: start = CHapticsSystem_monotonicNow()
        case let .offline(instant): start = instant.nanoseconds
        }
        framesWritten = 0
        return AudioTimestamp(framesWritten: 0, delayFrames: 0, instant: MonotonicInstant(nanoseconds: start))
    }

    /// Accounts for one written period; in real time waits until the device would have room for
    /// the next one. Returns a fresh reading.
    mutating func advance() -> AudioTimestamp {
        framesWritten += Int64(format.periodFrames)
        switch timing {
        case .offline:
            let instant = start + format.nanoseconds(frames: framesWritten)
            return AudioTimestamp(framesWritten: framesWritten, delayFrames: 0,
                                  instant: MonotonicInstant(nanoseconds: instant))
        case .realtime:
            let roomAt = start + format.nanoseconds(frames: framesWritten - Int64(format.bufferFrames))
            if roomAt > CHapticsSystem_monotonicNow() { _ = CHapticsSystem_sleepUntil(roomAt) }
            let now = CHapticsSystem_monotonicNow()
            let played = min(framesWritten, max(0, (now - start) * Int64(format.sampleRate) / 1_000_000_000))
            return AudioTimestamp(framesWritten: framesWritten, delayFrames: framesWritten - played,
                                  instant: MonotonicInstant(nanoseconds: now))
        }
    }
}
