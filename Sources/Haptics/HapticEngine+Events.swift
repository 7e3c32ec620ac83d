import HapticsDevices
import HapticsSystem

extension HapticEngine {
    /// Something that happened to the engine's devices. Delivered on a control-side thread (the
    /// engine's housekeeping or hotplug thread, or the caller of `addOutput`), never on the
    /// realtime thread.
    public enum Event: Sendable, Hashable {
        /// A device was added (at runtime, e.g. plugged in) and is ready to play.
        case deviceAdded(name: String, path: String?)
        /// A device stopped working (unplugged) and was removed; the other devices are unaffected.
        case deviceLost(name: String, path: String?, error: DeviceError)
        /// A device exists but cannot be opened (`.permissionDenied` names the fix: the udev
        /// `uaccess` rule); it is listed in `devices` as unavailable, and plays once it can be
        /// opened.
        case deviceUnavailable(name: String, path: String, error: DeviceError)
        /// The engine found no device it could open and plays on a simulated device instead:
        /// nothing is felt (plays say `.noRealDevice`).
        case fallbackToSimulatedDevice
        /// The audio output's device stopped working (`errno`, e.g. `ENODEV`): sound is no
        /// longer scheduled (outcomes say `.deviceLost`); haptics go on, undelayed.
        case audioDeviceLost(errno: Errno)
    }

    /// Events from now on, as an async sequence. Every access makes a new subscription; it ends
    /// when the engine goes away.
    public var events: AsyncStream<Event> {
        let (stream, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .bufferingNewest(64))
        eventHub.subscribe(continuation)
        return stream
    }

    /// Calls `handler` with every event from now on (replacing any previous handler; `nil`
    /// removes it). The handler runs on a control-side thread and must not block for long.
    public func setEventHandler(_ handler: (@Sendable (Event) -> Void)?) {
        eventHub.setHandler(handler)
    }
}
