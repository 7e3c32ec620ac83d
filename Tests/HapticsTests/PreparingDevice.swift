import HapticsDevices
import HapticsRendering
import HapticsScheduler
import Synchronization
import HapticsSystem

/// A simulated device that also takes part in the device contracts a real evdev device has:
/// it records what it was asked to prepare, expire and set as gain, and can be made "lost".
/// The host has no evdev devices; the kernel tests run the same engine paths on real ones.
final class PreparingDevice: PreparableActuator, HardwareGainActuator, LossReportingActuator, @unchecked Sendable {
    /// What the control side asked of the device, in order.
    enum Request: Equatable {
        case prepare(commands: Int)
        case expire(unusedSince: Int64)
        case gain(Double)
    }

    let simulated: SimulatedDevice
    private let requestLog = Mutex<[Request]>([])
    private let lost = Mutex<SystemCallError?>(nil)

    init(profile: DeviceProfile) {
        simulated = SimulatedDevice(profile: profile)
    }

    func perform(_ command: ActuatorCommand, channel: ChannelID, deadline: MonotonicInstant, now: MonotonicInstant) {
        simulated.perform(command, channel: channel, deadline: deadline, now: now)
    }

    func prepare(_ program: Program) throws(DeviceError) {
        requestLog.withLock { $0.append(.prepare(commands: program.commands.count)) }
    }

    func expirePreparations(unusedSince instant: MonotonicInstant) {
        requestLog.withLock { $0.append(.expire(unusedSince: instant.nanoseconds)) }
    }

    func setGain(_ gain: Double) throws(DeviceError) {
        requestLog.withLock { $0.append(.gain(gain)) }
    }

    var lossError: SystemCallError? { lost.withLock { $0 } }

    /// Makes the device report itself lost, as an evdev device does after `ENODEV`.
    func unplug() { lost.withLock { $0 = SystemCallError(call: "write", errno: .noSuchDevice) } }

    var requests: [Request] { requestLog.withLock { $0 } }
}
