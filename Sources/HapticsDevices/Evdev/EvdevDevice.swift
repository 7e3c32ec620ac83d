import CEvdev
import Glibc
import Synchronization
import HapticsSystem

/// An open evdev event node with force feedback, and what it said about itself when opened.
///
/// Opening reads the identity and capabilities (``info``) and stamps the node's events with
/// `CLOCK_MONOTONIC`, the engine's one clock. The descriptor is opened `O_RDWR` (uploads and
/// triggers are writes), `O_NONBLOCK` (reading events never waits) and `O_CLOEXEC`. Effects belong
/// to the descriptor that uploaded them: closing it makes the kernel stop and erase them all.
public final class EvdevDevice: Sendable {
    /// The node's path and capabilities, read at open.
    public let info: EvdevDeviceInfo
    /// The open descriptor. Valid until ``close()``.
    package let descriptor: FileDescriptor

    private let isOpen = Atomic<Bool>(true)

    /// The event node path.
    public var path: String { info.path }

    /// Opens the event node at `path` for force feedback.
    ///
    /// Throws ``DeviceError/permissionDenied(path:)`` when the node may not be opened for writing
    /// (install `Tools/udev/70-haptics.rules`), ``DeviceError/noForceFeedback(path:)`` when the device
    /// has no effect type or no slot, and ``DeviceError/systemCall(path:_:)`` otherwise, naming the
    /// call (`open`, `libevdev_new_from_fd`, `EVIOCGEFFECTS`, `libevdev_set_clock_id`).
    ///
    /// The corresponding C functions are `open`, `libevdev_new_from_fd` (with the `EVIOCGEFFECTS`
    /// ioctl, which libevdev has no call for) and `libevdev_set_clock_id`.
    public init(path: String) throws(DeviceError) {
        let descriptor: FileDescriptor
        do {
            descriptor = try FileDescriptor.open(path, .readWrite, options: [.nonBlocking, .closeOnExec])
        } catch {
            throw DeviceError(path: path, failure: error)
        }
        do throws(DeviceError) {
            self.info = try Self.describeForForceFeedback(path: path, descriptor: descriptor)
            self.descriptor = descriptor
        } catch {
            try? descriptor.close()
            throw error
        }
    }

    /// Describes the node, refuses one without force feedback, and sets its event clock.
    private static func describeForForceFeedback(
        path: String, descriptor: FileDescriptor
    ) throws(DeviceError) -> EvdevDeviceInfo {
        do {
            let device = try _LibevdevDevice(reading: descriptor)
            let info = try EvdevDeviceInfo(path: path, device)
            guard info.hasForceFeedback else { throw DeviceError.noForceFeedback(path: path) }
            try device.setEventClock(CLOCK_MONOTONIC)
            return info
        } catch let error as DeviceError {
            throw error
        } catch let error as SystemCallError {
            throw DeviceError(path: path, failure: error)
        } catch {
            preconditionFailure("unexpected error \(error)")
        }
    }

    /// Adopts an already open `descriptor` described by `info` (tests drive the actuator's error
    /// paths this way on a descriptor that is not an input device).
    init(info: EvdevDeviceInfo, descriptor: FileDescriptor) {
        self.info = info
        self.descriptor = descriptor
    }

    deinit { close() }

    /// Closes the descriptor; the kernel stops and erases every effect it uploaded. Idempotent.
    ///
    /// The corresponding C function is `close`.
    public func close() {
        guard isOpen.exchange(false, ordering: .acquiringAndReleasing) else { return }
        try? descriptor.close()
    }

    /// Whether ``close()`` has not been called yet.
    public var isClosed: Bool { !isOpen.load(ordering: .acquiring) }
}
