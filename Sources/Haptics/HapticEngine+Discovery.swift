import HapticsDevices
import HapticsRendering
import HapticsScheduler

extension HapticEngine {
    /// Opens the evdev event node at `path` as an output: its profile from the device catalog
    /// (known controllers by vendor/product, else from its force-feedback bits), its name and
    /// identity (`eventNode`) from the device. Throws `permissionDenied` (with the udev-rule hint),
    /// `noForceFeedback`, or the failed system call. The output's actuator stamps preparations on
    /// the system monotonic clock.
    public static func evdevOutput(path: String) throws(DeviceError) -> Output {
        let device = try EvdevDevice(path: path)
        return Output(device: EvdevActuator(device: device), profile: DeviceCatalog.profile(for: device.info),
                      name: device.info.name, path: path, eventNode: device.info)
    }

    /// The force-feedback devices in `directory` that this process can open, in node order.
    public static func discoverOutputs(in directory: String = "/dev/input") -> [Output] {
        discover(in: directory).outputs
    }

    /// The force-feedback devices in `directory`: those this process can open as outputs, and
    /// those it cannot (`accessError` says why: no permission, with the fix), in node order.
    static func discover(in directory: String) -> (outputs: [Output], unavailable: [EvdevDeviceInfo]) {
        var outputs: [Output] = []
        var unavailable: [EvdevDeviceInfo] = []
        for var info in DeviceCatalog.discover(directory: directory) {
            if info.accessError == nil {
                do throws(DeviceError) {
                    outputs.append(try evdevOutput(path: info.path))
                    continue
                } catch {
                    // Gone between the look and the open, or refused now: say so.
                    info.accessError = error
                }
            }
            unavailable.append(info)
        }
        return (outputs, unavailable)
    }

    /// Creates an engine on the force-feedback devices found in `directory`, or on a simulated
    /// device when there is none (so an application runs the same everywhere).
    ///
    /// Nothing found is left unsaid: a device that exists but cannot be opened (no permission) is
    /// listed in `devices` as `.unavailable` with the reason and raises `.deviceUnavailable`, and
    /// the fallback to the simulated device raises `.fallbackToSimulatedDevice` (plays on it say
    /// `.notPlayed(.noRealDevice)`). These events wait for the first handler or `events`
    /// subscription, since they happen before anyone can listen.
    public convenience init(discovering directory: String, configuration: Configuration = Configuration()) {
        let found = Self.discover(in: directory)
        self.init(clock: SystemMonotonicClock(), outputs: found.outputs.isEmpty ? [.fallback()] : found.outputs,
                  unavailable: found.unavailable, configuration: configuration)
    }

    /// The engine most applications want: every force-feedback device in `/dev/input` (else a
    /// simulated one), started, and watching for controllers plugged in or unplugged later.
    public static func automatic(configuration: Configuration = Configuration()) throws -> HapticEngine {
        let engine = HapticEngine(discovering: "/dev/input", configuration: configuration)
        try engine.start()
        // No /dev/input (a container): the engine still plays on what it has.
        try? engine.watchForDevices(in: "/dev/input", opening: evdevOutput(path:))
        return engine
    }

    /// The engine feedback generators play on when given none, so an app needs no engine of its
    /// own: an `automatic()` engine, made and started the first time it is used, that lives as
    /// long as the process. A game that starts and stops its engine, or configures it, makes its
    /// own and passes it. When the realtime thread cannot be made, the shared engine stays stopped
    /// and its plays say `.notPlayed(.engineStopped)`.
    public static var shared: HapticEngine { sharedEngine }
}

/// Made on first use (a global is initialized once, by the first thread that reads it).
private let sharedEngine: HapticEngine = {
    if let engine = try? HapticEngine.automatic() { return engine }
    return HapticEngine(discovering: "/dev/input")
}()
