import HapticsRendering
import HapticsScheduler
import HapticsSystem

/// An actuator that gets ready for a program ahead of time, so that playing it later costs as
/// little as possible (on evdev: effects uploaded with `EVIOCSFF` at prepare time, one `write()`
/// per trigger).
///
/// `prepare` and `expirePreparations` are control-side calls (they may allocate, block and do
/// ioctls); `perform` stays realtime-safe whatever was or was not prepared.
public protocol PreparableActuator: Actuator {
    /// Makes every command of `program` playable without an upload. Idempotent: preparing again
    /// marks the program's resources as recently used. When the device has too few slots, the
    /// least recently used resources of other programs are freed first.
    func prepare(_ program: Program) throws(DeviceError)

    /// Makes the commands of `program` playable without an upload if there is room for them now,
    /// for a play that may come (the other intensities of a prepared item). Nothing is freed for
    /// it, and what it prepares is the first to be freed when ``prepare(_:)`` needs room. Returns
    /// whether everything of `program` is prepared now.
    @discardableResult
    func prepareAhead(_ program: Program) throws(DeviceError) -> Bool

    /// Frees what was prepared and has not been used since `instant` (a prepare that is never
    /// used expires after a few seconds and releases the device slot).
    func expirePreparations(unusedSince instant: MonotonicInstant)
    /// The last use of the least recently used resource prepared now (what
    /// ``expirePreparations(unusedSince:)`` frees first); `nil` when nothing is prepared. The
    /// engine's housekeeping wakes for its expiry, and not before.
    var oldestPreparationUse: MonotonicInstant? { get }
}

extension PreparableActuator {
    /// For devices with room for everything: ``prepare(_:)``.
    @discardableResult
    public func prepareAhead(_ program: Program) throws(DeviceError) -> Bool {
        try prepare(program)
        return true
    }
}
