import HapticsRendering
import HapticsScheduler
import HapticsSystem

/// An actuator that records everything it is asked to perform, in order, and performs nothing.
///
/// Room for 4096 commands is reserved up front, so recording from the realtime thread does not
/// allocate.
public final class RecordingActuator: Actuator {
    private let emissions = Recorder<Emission>(reservingCapacity: 4096)

    /// Creates an actuator that has recorded nothing yet.
    public init() {}

    /// Records the command with its channel, deadline and the instant it was performed.
    public func perform(_ command: ActuatorCommand, channel: ChannelID, deadline: MonotonicInstant, now: MonotonicInstant) {
        emissions.append(Emission(command, channel: channel.rawValue, deadline: deadline.nanoseconds, now: now.nanoseconds))
    }

    /// Everything recorded so far, in order.
    public var recorded: [Emission] { emissions.all }

    /// Returns what was recorded since the last call.
    public func take() -> [Emission] { emissions.take() }
}
