import CEvdev
import Glibc
import HapticsSystem

/// libevdev's description of an open event node: one read of the node's identity and capability
/// bitmaps (`libevdev_new_from_fd`), answered from memory by the getters afterwards.
///
/// The handle is freed on deinit. It does not own the descriptor: the caller opened it and closes it.
/// Control side only: creating one allocates and makes a dozen ioctls.
struct _LibevdevDevice: ~Copyable {
    private let handle: OpaquePointer
    /// The descriptor libevdev reads from (and sets the clock of).
    let descriptor: FileDescriptor

    /// Reads the node behind `descriptor`; an `ENOTTY` means it is not an input device.
    ///
    /// The corresponding C function is `libevdev_new_from_fd`.
    init(reading descriptor: FileDescriptor) throws(SystemCallError) {
        var handle: OpaquePointer?
        _ = try _libevdevCall("libevdev_new_from_fd", on: descriptor) {
            libevdev_new_from_fd(descriptor.rawValue, &handle)
        }
        guard let handle else { preconditionFailure("libevdev_new_from_fd returned 0 without a device") }
        self.handle = handle
        self.descriptor = descriptor
    }

    deinit { libevdev_free(handle) }

    /// The device name. The corresponding C function is `libevdev_get_name`.
    var name: String { String(cString: libevdev_get_name(handle)) }

    /// The physical location; empty when the driver sets none (libevdev says `NULL`).
    /// The corresponding C function is `libevdev_get_phys`.
    var physicalLocation: String { libevdev_get_phys(handle).map { String(cString: $0) } ?? "" }

    /// The unique identifier; empty when the driver sets none.
    /// The corresponding C function is `libevdev_get_uniq`.
    var uniqueIdentifier: String { libevdev_get_uniq(handle).map { String(cString: $0) } ?? "" }

    /// Bus, vendor, product and version. The corresponding C functions are `libevdev_get_id_bustype`,
    /// `libevdev_get_id_vendor`, `libevdev_get_id_product` and `libevdev_get_id_version`.
    var id: InputID {
        // The kernel's struct input_id holds four __u16; libevdev hands them out as int.
        InputID(bus: UInt16(truncatingIfNeeded: libevdev_get_id_bustype(handle)),
                vendor: UInt16(truncatingIfNeeded: libevdev_get_id_vendor(handle)),
                product: UInt16(truncatingIfNeeded: libevdev_get_id_product(handle)),
                version: UInt16(truncatingIfNeeded: libevdev_get_id_version(handle)))
    }

    /// Whether the device has the event type `type` (`EV_FF`: force feedback).
    /// The corresponding C function is `libevdev_has_event_type`.
    func hasEventType(_ type: CInt) -> Bool { libevdev_has_event_type(handle, UInt32(type)) == 1 }

    /// The force-feedback codes the device advertises (effect types, waveforms and controls), asked
    /// code by code up to `FF_MAX`. The corresponding C function is `libevdev_has_event_code`.
    var forceFeedbackCodes: Set<ForceFeedbackCode> {
        var codes = Set<ForceFeedbackCode>()
        for code in 0...UInt32(FF_MAX) where libevdev_has_event_code(handle, UInt32(EV_FF), code) == 1 {
            codes.insert(ForceFeedbackCode(rawValue: UInt16(code)))
        }
        return codes
    }

    /// Stamps the descriptor's events with `clock` (the engine uses `CLOCK_MONOTONIC`).
    ///
    /// The corresponding C function is `libevdev_set_clock_id`.
    func setEventClock(_ clock: clockid_t) throws(SystemCallError) {
        _ = try _libevdevCall("libevdev_set_clock_id", on: descriptor) { libevdev_set_clock_id(handle, clock) }
    }
}

/// Runs one libevdev call through the system-call funnel, so it is retried on `EINTR`, traps on
/// errnos that mean a bug and, in debug builds, is recorded and can be failed by the mocking seam
/// under the function's own name.
///
/// libevdev returns a negative errno where a system call returns -1 and sets `errno`; the body is
/// turned into the system call's shape for the funnel, and a failure comes out as a
/// ``SystemCallError`` whose call is the libevdev function, e.g. `libevdev_new_from_fd: ENOTTY`.
@inline(__always)
func _libevdevCall(
    _ name: StaticString, on descriptor: FileDescriptor, _ body: () -> CInt
) throws(SystemCallError) -> Int {
    try _SystemCall.run(name, fileDescriptor: descriptor.rawValue) {
        let result = body()
        guard result < 0 else { return Int(result) }
        Glibc.errno = -result
        return -1
    }
}
