/// A submission as it travels through the command queue: a plain value, no references, so that
/// copying it never touches the heap or reference counts.
struct SchedulerCommand: Sendable {
    enum Kind: UInt8 {
        case start, stop, seek, setRate, setLoop, setIntensity, setSharpness, otherParameter, stopAll
        case pause, resume, intensityCurve, sharpnessCurve
    }

    var kind: Kind
    /// Player slot (unused by `stopAll`).
    var player: Int32
    /// Player generation the submitter held.
    var generation: UInt32
    /// When the command takes effect, `CLOCK_MONOTONIC` nanoseconds.
    var time: Int64
    /// Seek offset (nanoseconds), loop flag (0/1), start tag, or curve slot.
    var argument: Int64
    /// Rate, parameter value, or curve scale.
    var value: Double

    static let empty = SchedulerCommand(kind: .stopAll, player: -1, generation: 0, time: 0, argument: 0, value: 0)
}
