import HapticsRendering

/// A loaded program as the realtime side reads it: a copy of the commands in storage that is never
/// mutated while a player may read it.
struct ProgramStorage: @unchecked Sendable {
    var commands: UnsafeMutablePointer<TimedCommand>?
    var count: Int
    var duration: Int64
    /// Commands before the program's trailing `.stop`: a looping player wraps here instead of stopping.
    var loopEnd: Int

    static let empty = ProgramStorage(commands: nil, count: 0, duration: 0, loopEnd: 0)
}

/// A player as the realtime side runs it. Plain values only.
struct PlayerState {
    var active = false
    var generation: UInt32 = 0
    var program = -1
    var channel = -1
    /// Index of the next command to play.
    var cursor = 0
    /// The instant at which the program position was `anchorPosition`.
    var anchor: Int64 = 0
    /// Program position (nanoseconds of program time, counting loop iterations) at `anchor`.
    var anchorPosition: Int64 = 0
    /// Program time at which the current loop iteration started.
    var iterationBase: Int64 = 0
    var rate = 1.0
    var loops = false
    var intensityScale: Float = 1
    var sharpnessShift: Float = 0
    /// Where the next start begins (set by a seek while stopped).
    var idlePosition: Int64 = 0
    /// The rendered command in effect, kept to re-map it when a parameter changes.
    var base: TimedCommand?
    /// The level this player currently asks of its channel (after parameters).
    var level: ActuatorCommand = .stop

    init() {}

    init(generation: UInt32, program: Int, channel: Int) {
        self.generation = generation
        self.program = program
        self.channel = channel
    }
}

/// What the realtime side last sent to a channel.
struct ChannelState {
    var last: ActuatorCommand = .stop
    var silent = true
}

/// A channel's fixed configuration, written once by `addChannel` before the channel is published.
struct ChannelSlot {
    let output: any ActuatorOutput
    let profile: DeviceProfile
    let policy: OverlapPolicy
}

/// Everything only the processing thread touches, allocated once at init.
struct RealtimeState {
    var players: UnsafeMutablePointer<PlayerState>
    var channelStates: UnsafeMutablePointer<ChannelState>
    /// Active player slots in start order (mixing is order-independent except for the periodic
    /// waveform, which the earliest-started player chooses).
    var activePlayers: UnsafeMutablePointer<Int>
    var activeCount = 0
    /// Submitted commands waiting for their time, sorted by time descending (the next one is last);
    /// equal times keep submission order.
    var pending: UnsafeMutablePointer<SchedulerCommand>
    var pendingCount = 0
    var pendingCapacity: Int
}
