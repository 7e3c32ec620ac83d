import HapticsRendering
import HapticsScheduler
import HapticsSystem

/// An output that gets ready for a program ahead of time, so that playing it later costs as
/// little as possible (on evdev: effects uploaded with `EVIOCSFF` at prepare time, one `write()`
/// per trigger).
///
/// `prepare` and `expirePreparations` are control-side calls (they may allocate, block and do
/// ioctls); `perform` stays realtime-safe whatever was or was not prepared.
public protocol PreparableOutput: ActuatorOutput {
    /// Makes every command of `program` playable without an upload. Idempotent: preparing again
    /// marks the program's resources as recently used. When the device has too few slots, the
    /// least recently used resources of other programs are freed first.
    func prepare(_ program: Program) throws(DeviceError)

    /// Frees what was prepared and has not been used since `instant` (a prepare that is never
    /// used expires after a few seconds and releases the device slot).
    func expirePreparations(unusedSince instant: MonotonicInstant)
}

/// An output whose hardware applies a gain to everything it plays (evdev `FF_GAIN`).
public protocol HardwareGainOutput: ActuatorOutput {
    /// Sets the device gain, 0…1. Control side.
    func setGain(_ gain: Double) throws(DeviceError)
}

/// An output that can be lost (unplugged) while in use.
public protocol LossReportingOutput: ActuatorOutput {
    /// The error that ended the device (e.g. `write: ENODEV`), or `nil` while it works.
    /// Set on the realtime thread when a call first fails that way; read on the control side.
    var lossError: SystemCallError? { get }
}
