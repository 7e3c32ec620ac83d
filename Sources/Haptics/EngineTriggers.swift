import Glibc
import HapticsSystem
import HapticsTriggers
import Synchronization

/// The adaptive triggers of an engine's devices, opened at the first effect set on each and kept
/// until the engine stops (which sets them off), the device is lost, the engine goes, or the
/// process exits (``setOffAtExit``).
final class EngineTriggers: Sendable {
    /// The open pads, and whether pads may be opened: not before the engine starts, nor after it
    /// stopped, so that a call racing the stop cannot leave an effect behind it.
    private struct State {
        var outlets: [HapticDevice.ID: AdaptiveTriggers] = [:]
        var accepting = false
    }

    private let state = OrderedMutex(State())
    /// The `SCHED_FIFO` priority each pad's writer thread asks for.
    private let writerPriority: Int32

    init(writerPriority: Int32) {
        self.writerPriority = writerPriority
        _ = Self.exitHook
        Self.live.withLock { $0[ObjectIdentifier(self)] = Weak(value: self) }
    }

    deinit {
        Self.live.withLock { $0[ObjectIdentifier(self)] = nil }
    }

    // MARK: Exit

    /// A reference that does not keep an engine's triggers alive.
    private struct Weak: @unchecked Sendable {
        weak var value: EngineTriggers?
    }

    /// Every engine's triggers in the process.
    private static let live = OrderedMutex<[ObjectIdentifier: Weak]>([:])

    /// Registered once, with the first engine: a game that exits without stopping its engine (a
    /// shared engine is never deinitialised) must not leave a pad's triggers stiff. The kernel
    /// erases a closing process's force-feedback effects, but a trigger effect is the pad's state:
    /// nothing takes it back when the hidraw node closes. A process killed by a signal runs no
    /// exit handler; its pads keep their effects until something sets them again.
    private static let exitHook: Void = {
        atexit { EngineTriggers.setOffAtExit() }
    }()

    /// Closes every engine's open pads, which sets their triggers off: the process is exiting.
    private static func setOffAtExit() {
        let engines = live.withLock { $0.values.compactMap(\.value) }
        for triggers in engines { triggers.closeAll() }
    }

    /// Lets pads be opened again (the engine started).
    func open() {
        state.withLock { $0.accepting = true }
    }

    /// The event node of `device`; throws unless it is a pad with adaptive triggers.
    @discardableResult
    static func check(_ device: HapticDevice) throws(TriggerDeviceError) -> String {
        guard device.hasAdaptiveTriggers, let path = device.path else {
            throw .noAdaptiveTriggers(
                eventNode: device.path ?? device.name, vendor: device.inputID?.vendor ?? 0, product: device.inputID?.product ?? 0
            )
        }
        return path
    }

    /// The triggers of `device`, opened if need be.
    private func triggers(of device: HapticDevice) throws(TriggerDeviceError) -> AdaptiveTriggers {
        let path = try Self.check(device)
        if let open = state.withLock({ $0.outlets[device.id] }) { return open }
        // Opened outside the lock: it reads sysfs and starts a thread.
        let opened = try AdaptiveTriggers(eventNode: path, writerPriority: writerPriority)
        let open = state.withLock { state -> AdaptiveTriggers? in
            guard state.accepting else { return nil }
            if let raced = state.outlets[device.id] { return raced }
            state.outlets[device.id] = opened
            return opened
        }
        if open !== opened { opened.close() }
        guard let open else { throw .closed(node: opened.node.path) }
        return open
    }

    /// Sets `left` and `right` on `device` now (`instant` `nil`) or at `instant`, played at
    /// `strength`. A pad found lost or closed is forgotten, so that the next call opens it again
    /// once it is back.
    func set(
        _ device: HapticDevice, left: TriggerEffect?, right: TriggerEffect?, at instant: MonotonicInstant?, strength: Double
    ) throws(TriggerDeviceError) {
        let open = try triggers(of: device)
        open.strength = strength
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
        guard let open = state.withLock({ $0.outlets[device.id] }) else { return }
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

    /// The pads whose triggers are open.
    var openDevices: [HapticDevice.ID] {
        state.withLock { Array($0.outlets.keys) }
    }

    /// Plays `device`'s effects at `strength` from now on, the ones playing included, if its
    /// triggers are open.
    func setStrength(_ strength: Double, on device: HapticDevice.ID) {
        state.withLock { $0.outlets[device] }?.strength = strength
    }

    /// Drops what `device`'s triggers were given for `instant` or later and sets them off then, if
    /// they are open.
    func stop(_ device: HapticDevice.ID, at instant: MonotonicInstant) {
        guard let open = state.withLock({ $0.outlets[device] }) else { return }
        try? forgettingLostPads(device) { () throws(TriggerDeviceError) in try open.stop(at: instant) }
    }

    /// Drops what `device`'s triggers were given for `instant` or later, if they are open; what
    /// they play stays.
    func drop(_ device: HapticDevice.ID, from instant: MonotonicInstant) {
        state.withLock { $0.outlets[device] }?.dropEffects(from: instant)
    }

    /// Sets every open pad's triggers off and drops the effects waiting for their instants; the
    /// pads stay open.
    func resetAll() {
        for triggers in state.withLock({ Array($0.outlets.values) }) { try? triggers.reset() }
    }

    /// Closes the triggers of `device`, which sets them off (when the pad is still there).
    func close(_ device: HapticDevice.ID) {
        state.withLock { $0.outlets.removeValue(forKey: device) }?.close()
    }

    /// Closes every pad's triggers, which sets them off, and opens none until ``open()``.
    func closeAll() {
        let all = state.withLock { state in
            defer { state.outlets = [:] }
            state.accepting = false
            return Array(state.outlets.values)
        }
        for triggers in all { triggers.close() }
    }
}
