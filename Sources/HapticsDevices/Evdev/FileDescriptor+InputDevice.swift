import CEvdev
import Glibc
import HapticsSystem

/// Typed evdev calls on an event node (`/dev/input/event*`).
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

    /// The codes set in the capability bitmap of `eventType` (`EV_FF` gives the effect types).
    ///
    /// The corresponding ioctl is `EVIOCGBIT`.
    public func capabilities(ofEventType eventType: UInt16) throws(SystemCallError) -> Set<UInt16> {
        // KEY_MAX (0x2ff) is the largest code of any event type: 96 bytes hold every bitmap.
        let bits = UnsafeMutableRawBufferPointer.allocate(byteCount: 96, alignment: 8)
        defer { bits.deallocate() }
        bits.initializeMemory(as: UInt8.self, repeating: 0)
        _ = try ioctl("EVIOCGBIT", CEvdev_EVIOCGBIT(UInt32(eventType), UInt32(bits.count)), bits.baseAddress)
        var codes = Set<UInt16>()
        for (index, byte) in bits.enumerated() where byte != 0 {
            for bit in 0..<8 where byte & (1 << bit) != 0 { codes.insert(UInt16(index * 8 + bit)) }
        }
        return codes
    }

    /// The device's name, e.g. `Sony Interactive Entertainment Wireless Controller`.
    ///
    /// The corresponding ioctl is `EVIOCGNAME`.
    public func deviceName() throws(SystemCallError) -> String {
        try _string("EVIOCGNAME", CEvdev_EVIOCGNAME(256))
    }

    /// The device's unique identifier (a DualSense reports its MAC address); empty when it has none.
    ///
    /// The corresponding ioctl is `EVIOCGUNIQ`.
    public func uniqueIdentifier() throws(SystemCallError) -> String {
        do {
            return try _string("EVIOCGUNIQ", CEvdev_EVIOCGUNIQ(256))
        } catch where error.errno == .noSuchFileOrDirectory {
            return ""  // The kernel says ENOENT when the device has no uniq at all.
        }
    }

    /// Stamps this descriptor's events with `clock` (the engine uses `CLOCK_MONOTONIC`).
    ///
    /// The corresponding ioctl is `EVIOCSCLOCKID`.
    public func setEventClock(_ clock: clockid_t) throws(SystemCallError) {
        var identifier = CInt(clock)
        _ = try ioctl("EVIOCSCLOCKID", CEvdev_EVIOCSCLOCKID(), &identifier)
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

    private func _string(_ name: StaticString, _ request: UInt) throws(SystemCallError) -> String {
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: 256, alignment: 8)
        defer { bytes.deallocate() }
        bytes.initializeMemory(as: UInt8.self, repeating: 0)
        _ = try ioctl(name, request, bytes.baseAddress)
        return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
}
