/// Where a stream's frames become audible, estimated from the sink's readings.
///
/// Each reading gives the instant stream position 0 was audible (its *origin*). A device reports
/// its position only as often as its pointer moves, and a pointer only ever lags the sound, so
/// every reading's origin is the true one or later: the estimate is the **minimum** origin of the
/// last `window` readings — the freshest pointer, free of the lag — which still follows a sound
/// card whose crystal drifts against `CLOCK_MONOTONIC`. An underrun restarts the estimate, and so
/// does a reading whose origin is later than the estimate by more than the **jump tolerance**
/// (half the device buffer, at least one and a half periods): a pointer lags by less than a
/// period, so such a reading says the stream itself lost time — a stall longer than the buffer,
/// after which the kernel sees the pointer only modulo the buffer and reports no underrun (snd-aloop
/// in a stalled virtual machine does this). Keeping the earlier origins then would place every
/// voice of the next `window` periods late by the time lost.
///
/// The latency is the delay of each reading (`snd_pcm_delay` in nanoseconds: how long a frame
/// written then waits to be heard), exponentially smoothed with weight 1/8 per reading.
///
/// Noncopyable and freed in `deinit`: the output replaces its clock when the sink is opened (the
/// device may grant another rate), and the replaced clock's readings go with it.
package struct _StreamClock: ~Copyable {
    let sampleRate: Int
    private let window: Int
    /// Nanoseconds a reading's origin may lie after the estimate before it restarts it.
    let jumpTolerance: Int64
    private let origins: UnsafeMutablePointer<Int64>
    private var count = 0
    private var next = 0
    package private(set) var origin: Int64 = 0
    package private(set) var latency: Int64 = 0
    private var hasLatency = false

    package init(format: AudioStreamFormat, window: Int) {
        sampleRate = format.sampleRate
        self.window = window
        jumpTolerance = format.nanoseconds(frames: Int64(max(format.bufferFrames / 2, format.periodFrames * 3 / 2)))
        origins = .allocate(capacity: window)
        origins.initialize(repeating: 0, count: window)
    }

    deinit {
        origins.deallocate()
    }

    /// Whether a reading has arrived since the start or the last reset.
    package var isValid: Bool { count > 0 }

    /// Takes a reading; `true` when it jumped later than the tolerance and restarted the estimate.
    @discardableResult
    package mutating func observe(_ timestamp: AudioTimestamp) -> Bool {
        let reading = timestamp.origin(sampleRate: sampleRate)
        let jumped = count > 0 && reading - origin > jumpTolerance
        if jumped { reset() }
        origins[next] = reading
        next = (next + 1) % window
        count = min(count + 1, window)
        var lowest = Int64.max
        for index in 0..<count { lowest = min(lowest, origins[index]) }
        origin = lowest
        let delay = timestamp.delayFrames * 1_000_000_000 / Int64(sampleRate)
        if hasLatency {
            latency += (delay - latency) / 8
        } else {
            latency = delay
            hasLatency = true
        }
        return jumped
    }

    /// Forgets the origin readings (the stream restarted after a gap); the latency estimate stays.
    package mutating func reset() {
        count = 0
        next = 0
    }
}
