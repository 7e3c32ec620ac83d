import CEvdev
import Glibc
import HapticsSystem

/// Typed identity queries on an event node: where the device sits and who made it.
extension FileDescriptor {
    /// The device's bus type, vendor, product and version.
    ///
    /// The corresponding ioctl is `EVIOCGID`.
    public func inputID() throws(SystemCallError) -> InputID {
        var identity = input_id()
        _ = try ioctl("EVIOCGID", CEvdev_EVIOCGID(), &identity)
        return InputID(bus: identity.bustype, vendor: identity.vendor, product: identity.product,
                       version: identity.version)
    }

    /// The device's physical location, e.g. `usb-0000:00:14.0-2/input0`; empty when it has none.
    ///
    /// The corresponding ioctl is `EVIOCGPHYS`.
    public func physicalLocation() throws(SystemCallError) -> String {
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: 256, alignment: 8)
        defer { bytes.deallocate() }
        bytes.initializeMemory(as: UInt8.self, repeating: 0)
        do {
            _ = try ioctl("EVIOCGPHYS", CEvdev_EVIOCGPHYS(256), bytes.baseAddress)
        } catch where error.errno == .noSuchFileOrDirectory {
            return ""  // The kernel says ENOENT when the device has no phys at all.
        }
        return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
}
