import HapticsRendering
import HapticsSystem

/// A channel's fixed configuration, written once by `addChannel` before the channel is published.
///
/// `profile` alone may change later (`Scheduler.setChannelProfile`), and only while no player is
/// bound to the channel and processing has let go of the last ones: processing reads it only for
/// players of the channel. `output`, read for every channel when everything stops, never changes.
struct ChannelSlot {
    let output: any Actuator
    var profile: DeviceProfile
    let policy: OverlapPolicy
    /// A `dropStale` channel's `maximumLateness` in nanoseconds, the unit the realtime side compares
    /// lateness in; `nil` on the other policies.
    let staleLimit: Int64?

    init(output: any Actuator, profile: DeviceProfile, policy: OverlapPolicy) {
        self.output = output
        self.profile = profile
        self.policy = policy
        if case let .dropStale(maximumLateness) = policy {
            // Below zero would drop every level, late or not.
            staleLimit = max(0, maximumLateness.nanoseconds)
        } else {
            staleLimit = nil
        }
    }
}
