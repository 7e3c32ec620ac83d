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
    public let descriptor: FileDescriptor

    private let isOpen = Atomic<Bool>(true)

    /// The event node path.
    public var path: String { info.path }

    /// Opens the event node at `path` for force feedback.
    ///
    /// Throws ``DeviceError/permissionDenied(path:)`` when the node may not be opened for writing
    /// (install `Tools/udev/70-haptics.rules`), ``DeviceError/noForceFeedback(path:)`` when the device
    /// has no effect type or no slot, and ``DeviceError/systemCall(path:_:)`` otherwise.
    ///
    /// The corresponding C function is `open`; then `EVIOCGNAME`, `EVIOCGID`, `EVIOCGPHYS`,
    /// `EVIOCGUNIQ`, `EVIOCGBIT(EV_FF)`, `EVIOCGEFFECTS` and `EVIOCSCLOCKID`.
    public init(path: String) throws(DeviceError) {
        let descriptor: FileDescriptor
        do {
            descriptor = try FileDescriptor.open(path, .readWrite, options: [.nonBlocking, .closeOnExec])
        } catch {
            throw DeviceError(path: path, failure: error)
        }
        do {
            let info = try Self.readInfo(path: path, descriptor: descriptor)
            guard info.hasForceFeedback else { throw DeviceError.noForceFeedback(path: path) }
            try descriptor.setEventClock(CLOCK_MONOTONIC)
            self.info = info
            self.descriptor = descriptor
        } catch let error as DeviceError {
            try? descriptor.close()
            throw error
        } catch let error as SystemCallError {
            try? descriptor.close()
            throw DeviceError(path: path, failure: error)
        } catch {
            try? descriptor.close()
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

    /// Reads name, identity, location and force-feedback capabilities from an open node.
    static func readInfo(path: String, descriptor: FileDescriptor) throws(SystemCallError) -> EvdevDeviceInfo {
        let eventTypes = try descriptor.capabilities(ofEventType: 0)
        let hasFF = eventTypes.contains(UInt16(EV_FF))
        return EvdevDeviceInfo(
            path: path,
            name: try descriptor.deviceName(),
            id: try descriptor.inputID(),
            physicalLocation: try descriptor.physicalLocation(),
            uniqueIdentifier: try descriptor.uniqueIdentifier(),
            forceFeedbackCodes: hasFF ? try descriptor.capabilities(ofEventType: UInt16(EV_FF)) : [],
            slots: hasFF ? try descriptor.effectCapacity() : 0
        )
    }
}
