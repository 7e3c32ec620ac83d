import HapticsDevices
import HapticsRendering
import HapticsScheduler
import Synchronization
import HapticsSystem

/// A simulated device that also takes part in the device contracts a real evdev device has:
/// it records what it was asked to prepare, expire and set as gain, and can be made "lost".
/// The host has no evdev devices; the kernel tests run the same engine paths on real ones.
public final class PreparingDevice: PreparableActuator, HardwareGainActuator, LossReportingActuator, @unchecked Sendable {
    /// What the control side asked of the device, in order.
    public enum Request: Equatable, Sendable {
        /// Prepare a program of `commands` commands.
        case prepare(commands: Int)
        /// Prepare a program of `commands` commands ahead, if there is room.
        case prepareAhead(commands: Int)
        /// Release preparations unused since the instant.
        case expire(unusedSince: MonotonicInstant)
        /// Set the device gain.
        case gain(Double)
    }

    /// The simulated device that performs (and records) the commands.
    public let simulated: SimulatedDevice
    private let requestLog = Recorder<Request>()
    private let programLog = Recorder<Program>()
    private let lost = OrderedMutex<SystemCallError?>(nil)
    private let oldestUse = OrderedMutex<MonotonicInstant?>(nil)

    /// Creates a device playing with `profile`.
    public init(profile: DeviceProfile) {
        simulated = SimulatedDevice(profile: profile)
    }

    /// Performs the command on the simulated device.
    public func perform(_ command: ActuatorCommand, channel: ChannelID, deadline: MonotonicInstant, now: MonotonicInstant) {
        simulated.perform(command, channel: channel, deadline: deadline, now: now)
    }

    /// Records the request; never fails.
    public func prepare(_ program: Program) throws(DeviceError) {
        requestLog.append(.prepare(commands: program.commands.count))
        programLog.append(program)
    }

    /// Records the request (and the program); never fails, always has room.
    public func prepareAhead(_ program: Program) throws(DeviceError) -> Bool {
        requestLog.append(.prepareAhead(commands: program.commands.count))
        programLog.append(program)
        return true
    }

    /// Records the request.
    public func expirePreparations(unusedSince instant: MonotonicInstant) {
        requestLog.append(.expire(unusedSince: instant))
    }

    /// What the test says (`setOldestPreparationUse`): the device keeps no resources of its own.
    public var oldestPreparationUse: MonotonicInstant? { oldestUse.withLock { $0 } }

    /// Sets what ``oldestPreparationUse`` says.
    public func setOldestPreparationUse(_ instant: MonotonicInstant?) { oldestUse.withLock { $0 = instant } }

    /// Records the request; never fails.
    public func setGain(_ gain: Double) throws(DeviceError) {
        requestLog.append(.gain(gain))
    }

    /// `write: ENODEV` once `unplug()` was called, else `nil`.
    public var lossError: SystemCallError? { lost.withLock { $0 } }

    /// Makes the device report itself lost, as an evdev device does after `ENODEV`.
    public func unplug() { lost.withLock { $0 = SystemCallError(call: "write", errno: .operationNotSupportedByDevice) } }

    /// What the control side asked of the device so far, in order.
    public var requests: [Request] { requestLog.all }

    /// The programs `prepare` and `prepareAhead` were given so far, in order.
    public var preparedPrograms: [Program] { programLog.all }
}
