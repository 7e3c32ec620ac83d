import HapticsScheduler
import HapticsSystem

/// An actuator that can be lost (unplugged) while in use.
public protocol LossReportingActuator: Actuator {
    /// The error that ended the device (e.g. `write: ENODEV`), or `nil` while it works.
    /// Set on the realtime thread when a call first fails that way; read on the control side.
    var lossError: SystemCallError? { get }
}
