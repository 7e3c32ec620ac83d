import HapticsPatterns

/// What ``SoundAnalyzer`` found in a sound: its hits and its loudness and brightness over time,
/// in the units of a haptic pattern (seconds, intensity and sharpness 0…1).
public struct SoundAnalysis: Sendable, Hashable {
    /// A hit: a sudden rise in the sound.
    public struct Transient: Sendable, Hashable {
        /// When the hit starts, in seconds from the start of the sound.
        public var time: Double
        /// How strong the hit is, 0…1: its peak level, weighted by how steeply it rose.
        public var intensity: Double
        /// How bright the hit is, 0…1: the spectral centroid of its first frame in the band.
        public var sharpness: Double
        /// Creates a transient.
        public init(time: Double, intensity: Double, sharpness: Double) {
            self.time = time
            self.intensity = intensity
            self.sharpness = sharpness
        }
    }

    /// One point of a curve: a value at a time, here in seconds from the start of the sound.
    public typealias CurvePoint = ParameterCurve.ControlPoint

    /// A stretch of sound louder than silence: one continuous haptic event.
    public struct Segment: Sendable, Hashable {
        /// Where it starts, seconds.
        public var start: Double
        /// Where it ends, seconds.
        public var end: Double
        /// The loudness as intensity, simplified; the first point at `start`, the last at `end`.
        public var intensity: [CurvePoint]
        /// The brightness as sharpness, simplified; the first point at `start`, the last at `end`.
        public var sharpness: [CurvePoint]
        /// Creates a segment.
        public init(start: Double, end: Double, intensity: [CurvePoint], sharpness: [CurvePoint]) {
            self.start = start
            self.end = end
            self.intensity = intensity
            self.sharpness = sharpness
        }
    }

    /// How long the sound is, seconds.
    public var duration: Double
    /// The hits, in time order.
    public var transients: [Transient]
    /// The stretches louder than silence, in time order, not overlapping.
    public var segments: [Segment]

    /// Creates an analysis.
    public init(duration: Double, transients: [Transient], segments: [Segment]) {
        self.duration = duration
        self.transients = transients
        self.segments = segments
    }
}
