import HapticsRendering
import HapticsSystem

/// A player as the realtime side runs it. Plain values only.
struct PlayerState {
    var active = false
    var generation: UInt32 = 0
    var program = -1
    var channel = -1
    /// Index of the next command to play.
    var cursor = 0
    /// The instant at which the program position was `anchorPositionNanoseconds`.
    var anchor = MonotonicInstant(nanoseconds: 0)
    /// Program position (nanoseconds of program time in the current loop pass) at `anchor`.
    var anchorPositionNanoseconds: Int64 = 0
    var rate = 1.0
    var loops = false
    var intensityScale: Float = 1
    var sharpnessShift: Float = 0
    /// Where the next start begins (set by a seek while stopped).
    var idlePositionNanoseconds: Int64 = 0
    /// The rendered command in effect, kept to re-map it when a parameter changes.
    var base: TimedCommand?
    /// The level this player currently asks of its channel (after parameters).
    var level: ActuatorCommand = .stop
    /// Paused: inactive and silent, `idlePositionNanoseconds` holding where it paused, until `resume`.
    var paused = false
    /// The tag of the start playing now (0: its ending is not reported).
    var startTag: Int64 = 0
    /// The runtime curves driving its intensity and sharpness controls.
    var intensityCurve = CurvePlayback()
    var sharpnessCurve = CurvePlayback()

    init() {}

    init(generation: UInt32, program: Int, channel: Int) {
        self.generation = generation
        self.program = program
        self.channel = channel
    }

    /// The intensity factor a player plays at for an intensity parameter `value` (finite): below 0
    /// counts as 0.
    @inline(__always)
    static func intensityFactor(_ value: Double) -> Float { Float(max(0, value)) }
}
