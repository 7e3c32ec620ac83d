import HapticsRendering
import HapticsScheduler
import HapticsSystem

extension MotorTimeline {
    /// Creates the timeline a ``SimulatedDevice`` actually played, from the arrival times of its commands.
    ///
    /// - Parameters:
    ///   - recording: the device's recording.
    ///   - channel: only commands on this channel; `nil` takes every command (a one-channel device).
    ///   - origin: time zero of the timeline; `nil` = the first selected command's arrival.
    ///   - actuator: when given, its motors are always shown.
    public init(
        recording: [RecordedCommand],
        channel: ChannelID? = nil,
        origin: MonotonicInstant? = nil,
        actuator: DeviceProfile.ActuatorKind? = nil
    ) {
        let selected = recording.filter { channel == nil || $0.channel == channel }
        let zero = origin ?? selected.first?.time ?? MonotonicInstant(nanoseconds: 0)
        let commands = selected.map {
            TimedCommand(offsetNanoseconds: $0.time.nanoseconds - zero.nanoseconds, intensity: 0, sharpness: 0, command: $0.command)
        }
        self.init(commands: commands, actuator: actuator)
    }
}
