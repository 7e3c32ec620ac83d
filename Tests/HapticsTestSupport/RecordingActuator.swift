import HapticsRendering
import HapticsScheduler
import Synchronization
import HapticsSystem

/// An actuator that records everything it is asked to perform, in order, and performs nothing.
///
/// Room for 4096 commands is reserved up front, so recording from the realtime thread does not
/// allocate.
///
/// Given a `levelLifetime`, it also keeps a safety-net length the way ff-memless keeps an
/// effect's `replay.length`: each perform of a level starts it again, and
/// `lifetimeOfPerformedLevel` says how much of it is left — what the scheduler renews against.
public final class RecordingActuator: Actuator {
    private let emissions = Recorder<Emission>(reservingCapacity: 4096)
    private let levelLifetime: Int64?
    /// When the level performed last runs out on its own (`.min`: nothing plays).
    private let expiry = Atomic<Int64>(.min)

    /// Creates an actuator that has recorded nothing yet; with a `levelLifetime`, every level it
    /// performs lasts that long on its own.
    public init(levelLifetime: Duration? = nil) {
        self.levelLifetime = levelLifetime?.nanoseconds
    }

    /// Records the command with its channel, deadline and the instant it was performed.
    public func perform(_ command: ActuatorCommand, channel: ChannelID, deadline: MonotonicInstant, now: MonotonicInstant) {
        emissions.append(Emission(command, channel: channel.rawValue, deadlineNanoseconds: deadline.nanoseconds, nowNanoseconds: now.nanoseconds))
        if let levelLifetime {
            expiry.store(command.isSilent ? .min : now.nanoseconds + levelLifetime, ordering: .relaxed)
        }
    }

    /// What is left of the level's lifetime, when the actuator has one and a level plays.
    public func lifetimeOfPerformedLevel(on channel: ChannelID, now: MonotonicInstant) -> Duration? {
        let end = expiry.load(ordering: .relaxed)
        guard levelLifetime != nil, end != .min else { return nil }
        return .nanoseconds(end - now.nanoseconds)
    }

    /// Everything recorded so far, in order.
    public var recorded: [Emission] { emissions.all }

    /// Returns what was recorded since the last call.
    public func take() -> [Emission] { emissions.take() }
}
