import CEvdev
import Glibc
import HapticsSystem

/// The evdev calls libevdev has no function for, typed: the effect count, uploading and erasing an
/// effect (ioctls), and the input event a play or a stop is (one `write`).
///
/// Everything else an event node says about itself is read through libevdev
/// (``EvdevDeviceInfo/init(describing:path:)``).
extension FileDescriptor {
    /// Uploads `effect`, or updates it in place when `effect.id` is an id this descriptor uploaded.
    /// With `effect.id == -1` the kernel picks a slot and writes its id back into `effect`.
    ///
    /// The corresponding ioctl is `EVIOCSFF`.
    public func uploadEffect(_ effect: inout ff_effect) throws(SystemCallError) {
        _ = try withUnsafeMutablePointer(to: &effect) { (pointer) throws(SystemCallError) in
            try ioctl("EVIOCSFF", CEvdev_EVIOCSFF(), pointer)
        }
    }

    /// Erases the effect `id` (the kernel stops it first if it is playing).
    ///
    /// The corresponding ioctl is `EVIOCRMFF`.
    public func eraseEffect(id: Int16) throws(SystemCallError) {
        _ = try ioctl("EVIOCRMFF", CEvdev_EVIOCRMFF(), value: Int(id))
    }

    /// How many effects the device holds at once (16 for ff-memless gamepads).
    ///
    /// The corresponding ioctl is `EVIOCGEFFECTS`.
    public func effectCapacity() throws(SystemCallError) -> Int {
        var count: CInt = 0
        _ = try ioctl("EVIOCGEFFECTS", CEvdev_EVIOCGEFFECTS(), &count)
        return Int(count)
    }

    /// Writes one input event, e.g. `EV_FF` with an effect id and 1 (play) or 0 (stop).
    /// This is the whole cost of a prepared trigger: one `write`, no allocation.
    ///
    /// The corresponding C function is `write`.
    public func writeInputEvent(type: UInt16, code: UInt16, value: Int32) throws(SystemCallError) {
        var event = input_event()
        event.type = type
        event.code = code
        event.value = value
        _ = try withUnsafeBytes(of: &event) { (buffer) throws(SystemCallError) in try write(buffer) }
    }
}
