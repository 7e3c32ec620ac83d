import HapticsRendering
import HapticsSystem

/// A channel's fixed configuration, written once by `addChannel` before the channel is published.
///
/// `profile` alone may change later (`Scheduler.setChannelProfile`), and only while no player is
/// bound to the channel and processing has let go of the last ones: processing reads it only for
/// players of the channel. The output, read for every channel when everything stops, never changes.
struct ChannelSlot {
    /// The output, in a box the slot holds for as long as the scheduler lives.
    private let box: OutputBox
    /// The box, unretained: loading it is a plain copy of its address, and calling the output
    /// through it (`withOutput`) costs no retain and release per level.
    private let unretainedBox: Unmanaged<OutputBox>
    var profile: DeviceProfile
    let policy: OverlapPolicy
    /// A `dropStale` channel's `maximumLateness`, in the unit the realtime side compares lateness
    /// in; `nil` on the other policies.
    let staleLimitNanoseconds: Int64?

    init(output: any Actuator, profile: DeviceProfile, policy: OverlapPolicy) {
        box = OutputBox(output)
        unretainedBox = Unmanaged.passUnretained(box)
        self.profile = profile
        self.policy = policy
        if case let .dropStale(maximumLateness) = policy {
            // Below zero would drop every level, late or not.
            staleLimitNanoseconds = max(0, maximumLateness.nanoseconds)
        } else {
            staleLimitNanoseconds = nil
        }
    }

    /// Runs `body` with the output of the channel `slot` points to, with no retain and release
    /// around the call: how processing performs each level. (Read through the slot's address, so
    /// that the slot, with its profile's strings, is not copied.)
    @inline(__always)
    static func withOutput<Result>(of slot: UnsafeMutablePointer<ChannelSlot>, _ body: (any Actuator) -> Result) -> Result {
        slot.pointee.unretainedBox._withUnsafeGuaranteedRef { body($0.output) }
    }

    /// Performs `command` on the output of channel `channel`, whose slot `slot` points to: every
    /// level processing writes goes through here.
    @inline(__always)
    static func perform(_ command: ActuatorCommand, on slot: UnsafeMutablePointer<ChannelSlot>, channel: Int,
                        deadline: MonotonicInstant, now: MonotonicInstant) {
        withOutput(of: slot) {
            $0.perform(command, channel: ChannelID(rawValue: channel), deadline: deadline, now: now)
        }
    }
}

/// A channel's output behind one object, so that it can be called on without a retain.
final class OutputBox {
    let output: any Actuator
    init(_ output: any Actuator) { self.output = output }
}
