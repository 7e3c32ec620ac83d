import Synchronization
import HapticsRendering
@testable import HapticsScheduler
import HapticsSystem

/// An output that records everything it is asked to perform, in order.
final class RecordingOutput: Actuator {
    private let emissions = Mutex<[Emission]>([])

    init() {
        emissions.withLock { $0.reserveCapacity(4096) }
    }

    func perform(_ command: ActuatorCommand, channel: ChannelID, deadline: MonotonicInstant, now: MonotonicInstant) {
        emissions.withLock {
            $0.append(Emission(command, channel: channel.rawValue, deadline: deadline.nanoseconds, now: now.nanoseconds))
        }
    }

    var recorded: [Emission] { emissions.withLock { $0 } }

    /// Returns what was recorded since the last call.
    func take() -> [Emission] {
        emissions.withLock { recorded in
            defer { recorded.removeAll(keepingCapacity: true) }
            return recorded
        }
    }
}
