import HapticsSystem
/// A submission as it travels through the command queue: a plain value, no references, so that
/// copying it never touches the heap or reference counts.
struct SchedulerCommand: Sendable {
    enum Kind: UInt8 {
        case start, stop, seek, setRate, setLoop, setIntensity, setSharpness, otherParameter, stopAll
        case pause, resume, intensityCurve, sharpnessCurve
        /// A channel's direct level: `player` is the channel, `motorLevels` the levels,
        /// `directLevelEnd` when it ends.
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
    /// One word whose meaning depends on `kind`: read it through the accessor for that kind.
    private var argument: Int64
    /// Rate, parameter value, curve scale, or a start's intensity factor (NaN: unchanged).
    var value: Double
    /// The submission's trace number (``TraceRecord/sequence``); 0 when tracing is off.
    var sequence: UInt32 = 0

    /// `argument`: a `start`'s tag, a `seek`'s offset in nanoseconds, a `setLoop`'s flag (0 or 1),
    /// a curve's slot, or a `setMotorLevels`'s end instant in nanoseconds; 0 for the other kinds.
    init(kind: Kind, player: Int32, generation: UInt32, motorLevels: UInt32 = 0, time: MonotonicInstant,
         argument: Int64, value: Double, sequence: UInt32 = 0) {
        self.kind = kind
        self.player = player
        self.generation = generation
        self.motorLevels = motorLevels
        self.time = time
        self.argument = argument
        self.value = value
        self.sequence = sequence
    }

    /// A `start`'s tag: nonzero when its ending is reported.
    var tag: Int64 { argument }
    /// A `seek`'s program offset.
    var offsetNanoseconds: Int64 { argument }
    /// A `setLoop`'s flag.
    var loops: Bool { argument != 0 }
    /// An `intensityCurve`'s or `sharpnessCurve`'s slot in the curve table.
    var curveSlot: Int { Int(argument) }
    /// A `setMotorLevels`'s end: when the direct level stops.
    var directLevelEnd: MonotonicInstant { MonotonicInstant(nanoseconds: argument) }

    static let empty = SchedulerCommand(kind: .stopAll, player: -1, generation: 0, time: MonotonicInstant(nanoseconds: 0), argument: 0, value: 0)
}
