import CEvdev
import Glibc
import HapticsSystem
import Testing
@testable import HapticsDevices

/// An evdev device whose descriptor is the write end of a pipe: every `write()` the engine makes can
/// be read back from the other end, and every ioctl fails with `ENOTTY` unless the mocking seam forces
/// another errno. The host tests of the actuator and of verification drive it.
struct PipeBackedDevice {
    /// The device, as the engine sees it.
    let device: EvdevDevice
    /// The read end, non-blocking.
    let reader: FileDescriptor

    /// A device at `path` advertising `codes` with `slots` effect slots.
    init(path: String, codes: Set<ForceFeedbackCode>, slots: Int = 4) throws {
        var ends: [CInt] = [-1, -1]
        try #require(pipe(&ends) == 0)
        _ = fcntl(ends[0], F_SETFL, O_NONBLOCK)
        let info = EvdevDeviceInfo(path: path, name: "test pad", id: InputID(bus: 6, vendor: 0x1209, product: 1, version: 1),
                                   physicalLocation: "", uniqueIdentifier: "", forceFeedbackCodes: codes, slots: slots)
        device = EvdevDevice(info: info, descriptor: FileDescriptor(rawValue: ends[1]))
        reader = FileDescriptor(rawValue: ends[0])
    }

    /// Every input event written so far: (type, code, value).
    static func writtenEvents(_ reader: FileDescriptor) -> [[Int32]] {
        var events: [[Int32]] = []
        var event = input_event()
        while let count = try? withUnsafeMutableBytes(of: &event, { try reader.read(into: $0) }), count > 0 {
            events.append([Int32(event.type), Int32(event.code), event.value])
        }
        return events
    }
}
