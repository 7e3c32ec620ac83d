import HapticsDevices
import HapticsSystem

/// The engine's control-side background work: the housekeeping thread and the hotplug monitor.
struct EngineBackground: Sendable {
    /// Runs `performHousekeeping` when something is due (`HapticEngine.requestHousekeeping`).
    var housekeeping: OnDemandThread?
    var hotplug: HotplugMonitor?
}
