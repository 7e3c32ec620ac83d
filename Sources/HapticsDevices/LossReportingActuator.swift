import HapticsScheduler
import HapticsSystem

/// An actuator that can be lost (unplugged) while in use.
public protocol LossReportingActuator: Actuator {
    /// The error that ended the device (e.g. `write: ENODEV`), or `nil` while it works.
    /// Set on the realtime thread when a call first fails that way; read on the control side.
    var lossError: SystemCallError? { get }
}

/// An actuator that asks for a run of whoever reports its loss, the moment it finds its device
/// gone, so that nothing has to poll for it.
package protocol LossAnnouncingActuator: LossReportingActuator {
    /// Where a loss asks for its report (the engine's housekeeping). Control side, before the
    /// actuator plays; the first one given stays.
    func announceLoss(to requests: RunRequests)
}
