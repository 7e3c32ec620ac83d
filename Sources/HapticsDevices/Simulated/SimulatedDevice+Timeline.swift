import HapticsScheduler
import HapticsSystem

extension SimulatedDevice {
    /// What the device played so far, as motor levels timed from the first recorded command
    /// (or from `origin`), with the motors of the device's profile.
    public func timeline(channel: ChannelID? = nil, origin: MonotonicInstant? = nil) -> MotorTimeline {
        MotorTimeline(recording: recording(), channel: channel, origin: origin, actuator: profile.actuator)
    }
}
