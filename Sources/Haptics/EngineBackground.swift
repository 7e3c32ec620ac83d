import Dispatch
import HapticsDevices

/// The engine's control-side background work: the housekeeping timer and the hotplug monitor.
// Dispatch sources are safe to use from any thread; they are only declared non-Sendable.
struct EngineBackground: @unchecked Sendable {
    var housekeeping: (any DispatchSourceTimer)?
    var hotplug: HotplugMonitor?
}
