import HapticsSystem

/// Maps an app's own audio clock — a frame counter of its audio engine — to `CLOCK_MONOTONIC`, so a
/// game that plays its sounds itself can tell the engine when a sound is heard.
///
/// Take readings of the pair (frame counter, monotonic now), e.g. each audio callback: with two the
/// mapping is the line through them (slope = nanoseconds per frame, i.e. the real rate of the audio
/// clock, offset = the instant of the first reading's frame); with more, the least-squares line,
/// which averages out the jitter of when each reading was taken. The arithmetic is relative to the
/// first reading, so instants long after boot keep full precision.
public struct AudioClockMapping: Sendable, Hashable {
    /// One simultaneous reading of the app's frame counter and the monotonic clock.
    public struct Reading: Sendable, Hashable {
        /// The app's audio frame counter.
        public var frame: Int64
        /// `CLOCK_MONOTONIC` at the same moment.
        public var instant: MonotonicInstant
        /// Creates a reading.
        public init(frame: Int64, instant: MonotonicInstant) {
            self.frame = frame
            self.instant = instant
        }
    }

    /// The reading the line is anchored at.
    public var anchor: Reading
    /// Nanoseconds per frame of the app's clock (1e9 / its real rate).
    public var nanosecondsPerFrame: Double
    /// Nanoseconds from `anchor.instant` at which the line passes `anchor.frame` (0 for two readings).
    public var anchorCorrection: Double

    /// The line through two readings.
    public init(_ first: Reading, _ second: Reading) throws(AudioClockMappingError) {
        try self.init(readings: [first, second])
    }

    /// The least-squares line through `readings` (at least two, with at least two distinct frames).
    public init(readings: [Reading]) throws(AudioClockMappingError) {
        guard readings.count >= 2 else { throw .tooFewReadings(readings.count) }
        let anchor = readings[0]
        // Work in offsets from the anchor: small numbers, exact in Double.
        let xs = readings.map { Double($0.frame - anchor.frame) }
        let ys = readings.map { Double($0.instant.nanoseconds - anchor.instant.nanoseconds) }
        let count = Double(readings.count)
        let meanX = xs.reduce(0, +) / count
        let meanY = ys.reduce(0, +) / count
        var covariance = 0.0
        var variance = 0.0
        for index in xs.indices {
            covariance += (xs[index] - meanX) * (ys[index] - meanY)
            variance += (xs[index] - meanX) * (xs[index] - meanX)
        }
        guard variance > 0 else { throw .sameFrame }
        let slope = covariance / variance
        guard slope > 0 else { throw .clockRunsBackwards }
        self.anchor = anchor
        nanosecondsPerFrame = slope
        anchorCorrection = meanY - slope * meanX
    }

    /// A mapping from a nominal rate and one reading (when only one reading is at hand).
    public init(sampleRate: Int, reading: Reading) {
        anchor = reading
        nanosecondsPerFrame = 1e9 / Double(sampleRate)
        anchorCorrection = 0
    }

    /// The monotonic instant of the app's `frame`, rounded to the nanosecond.
    public func instant(ofFrame frame: Int64) -> MonotonicInstant {
        let offset = anchorCorrection + nanosecondsPerFrame * Double(frame - anchor.frame)
        return anchor.instant.advanced(by: Int64(offset.rounded()))
    }

    /// The app's frame (fractional) at `instant`: the inverse of ``instant(ofFrame:)``.
    public func frame(at instant: MonotonicInstant) -> Double {
        let elapsed = Double(instant.nanoseconds - anchor.instant.nanoseconds) - anchorCorrection
        return Double(anchor.frame) + elapsed / nanosecondsPerFrame
    }

    /// The app clock's real rate in frames per second.
    public var sampleRate: Double { 1e9 / nanosecondsPerFrame }
}
