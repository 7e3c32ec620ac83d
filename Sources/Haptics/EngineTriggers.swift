import HapticsSystem
import HapticsTriggers
import Synchronization

/// The adaptive triggers of an engine's devices, opened at the first effect set on each and kept
/// until the engine stops (which sets them off), the device is lost, or the engine goes.
final class EngineTriggers: Sendable {
    private let outlets = Mutex<[HapticDevice.ID: AdaptiveTriggers]>([:])

    /// Throws unless `device` is a pad with adaptive triggers.
    static func check(_ device: HapticDevice) throws(TriggerDeviceError) {
        guard device.hasAdaptiveTriggers, device.path != nil else {
            throw .noAdaptiveTriggers(
                eventNode: device.path ?? device.name, vendor: device.inputID?.vendor ?? 0, product: device.inputID?.product ?? 0
            )
        }
    }

    /// The triggers of `device`, opened if need be.
    private func triggers(of device: HapticDevice) throws(TriggerDeviceError) -> AdaptiveTriggers {
        try Self.check(device)
        if let open = outlets.withLock({ $0[device.id] }) { return open }
        guard let path = device.path else { throw .unknownInputDevice(eventNode: device.name) }
        // Opened outside the lock: it reads sysfs and starts a thread.
        let opened = try AdaptiveTriggers(eventNode: path)
        let open = outlets.withLock { outlets in
            if let raced = outlets[device.id] { return raced }
            outlets[device.id] = opened
            return opened
        }
        if open !== opened { opened.close() }
        return open
    }

    /// Sets `left` and `right` on `device` now (`instant` `nil`) or at `instant`. A pad found lost
    /// or closed is forgotten, so that the next call opens it again once it is back.
    func set(_ device: HapticDevice, left: TriggerEffect?, right: TriggerEffect?, at instant: MonotonicInstant?) throws(TriggerDeviceError) {
        let open = try triggers(of: device)
        try forgettingLostPads(device.id) { () throws(TriggerDeviceError) in
            if let instant {
                try open.setEffects(left: left, right: right, at: instant)
            } else {
                try open.setEffects(left: left, right: right)
            }
        }
    }

    /// Sets `device`'s triggers off now and drops its effects set for later, if they are open
    /// (effects were set since the engine started).
    func reset(_ device: HapticDevice) throws(TriggerDeviceError) {
        try Self.check(device)
        guard let open = outlets.withLock({ $0[device.id] }) else { return }
        try forgettingLostPads(device.id) { () throws(TriggerDeviceError) in try open.reset() }
    }

    /// Runs `body`; a pad it finds lost or closed is forgotten, so that the next call opens it
    /// again once it is back.
    private func forgettingLostPads(_ device: HapticDevice.ID, _ body: () throws(TriggerDeviceError) -> Void) throws(TriggerDeviceError) {
        do throws(TriggerDeviceError) {
            try body()
        } catch {
            switch error {
            case .padLost, .closed: close(device)
            default: break
            }
            throw error
        }
    }

    /// Drops what `device`'s triggers were given for `instant` or later and sets them off then, if
    /// they are open.
    func stop(_ device: HapticDevice.ID, at instant: MonotonicInstant) {
        guard let open = outlets.withLock({ $0[device] }) else { return }
        try? forgettingLostPads(device) { () throws(TriggerDeviceError) in try open.stop(at: instant) }
    }

    /// Sets every open pad's triggers off and drops the effects waiting for their instants; the
    /// pads stay open.
    func resetAll() {
        for triggers in outlets.withLock({ Array($0.values) }) { try? triggers.reset() }
    }

    /// Closes the triggers of `device`, which sets them off (when the pad is still there).
    func close(_ device: HapticDevice.ID) {
        outlets.withLock { $0.removeValue(forKey: device) }?.close()
    }

    /// Closes every pad's triggers, which sets them off.
    func closeAll() {
        let all = outlets.withLock { outlets in
            defer { outlets = [:] }
            return Array(outlets.values)
        }
        for triggers in all { triggers.close() }
    }
}
