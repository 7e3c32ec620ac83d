import HapticsSystem
/// A submission as it travels through the command queue: a plain value, no references, so that
/// copying it never touches the heap or reference counts.
struct SchedulerCommand: Sendable {
    enum Kind: UInt8 {
        case start, stop, seek, setRate, setLoop, setIntensity, setSharpness, otherParameter, stopAll
        case pause, resume, intensityCurve, sharpnessCurve
        /// A channel's direct level: `player` is the channel, `motorLevels` the levels, `argument`
        /// the end instant.
        case setMotorLevels
    }

    var kind: Kind
    /// Player slot (unused by `stopAll`; the channel for `setMotorLevels`).
    var player: Int32
    /// Player generation the submitter held.
    var generation: UInt32
    /// `setMotorLevels`: the low motor's level << 16 | the high motor's, each 0…0xFFFF. Sits in
    /// the padding after `generation`.
    var motorLevels: UInt32 = 0
    /// When the command takes effect.
    var time: MonotonicInstant
    /// Seek offset (nanoseconds), loop flag (0/1), start tag, curve slot, or the end of a direct
    /// level (instant, nanoseconds).
    var argument: Int64
    /// Rate, parameter value, curve scale, or a start's intensity factor (NaN: unchanged).
    var value: Double
    /// The submission's trace number (``TraceRecord/sequence``); 0 when tracing is off.
    var sequence: UInt32 = 0

    static let empty = SchedulerCommand(kind: .stopAll, player: -1, generation: 0, time: MonotonicInstant(nanoseconds: 0), argument: 0, value: 0)
}
