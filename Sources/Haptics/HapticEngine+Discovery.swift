import HapticsDevices
import HapticsRendering
import HapticsScheduler

extension HapticEngine {
    /// Opens the evdev event node at `path` as an output: its profile from the device catalog
    /// (known controllers by vendor/product, else from its force-feedback bits), its name from the
    /// device. Throws `permissionDenied` (with the udev-rule hint), `noForceFeedback`, or the failed
    /// system call. The output's actuator stamps preparations on the system monotonic clock.
    public static func evdevOutput(path: String) throws(DeviceError) -> Output {
        let device = try EvdevDevice(path: path)
        return Output(device: EvdevActuator(device: device), profile: DeviceCatalog.profile(for: device.info),
                      name: device.info.name, path: path)
    }

    /// The force-feedback devices in `directory` that this process can open, in node order.
    public static func discoverOutputs(in directory: String = "/dev/input") -> [Output] {
        DeviceCatalog.discover(directory: directory).compactMap { info in
            guard info.accessError == nil else { return nil }
            return try? evdevOutput(path: info.path)
        }
    }

    /// Creates an engine on the force-feedback devices found in `directory`, or on a simulated
    /// device when there is none (so an application runs the same everywhere).
    public convenience init(discovering directory: String, configuration: Configuration = Configuration()) {
        let found = Self.discoverOutputs(in: directory)
        self.init(outputs: found.isEmpty ? [.simulated()] : found, configuration: configuration)
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
}
