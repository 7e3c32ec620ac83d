import CEvdev
import Glibc
import HapticsSystem

/// A virtual force-feedback device made with uinput, which answers every upload and erase and
/// records everything the kernel asks of it with the kernel's timestamp.
///
/// The engine sees it as any evdev force-feedback device (find it with ``eventNodePath``); tests
/// read back exactly which uploads, plays and stops reached the kernel, and when. Creating one
/// needs write access to `/dev/uinput` (normally root). One thread (`haptics-uinput`) answers every
/// sink of the process, from the first sink's creation to the last one's close.
public final class UInputForceFeedbackSink: @unchecked Sendable {
    /// What device to create.
    public struct Configuration: Sendable {
        /// The device name (`EVIOCGNAME`); make it unique to find the node again.
        public var name: String
        /// Effect types to advertise (`FF_RUMBLE`, `FF_PERIODIC`, `FF_CONSTANT`, `FF_GAIN`…).
        public var effectTypes: [UInt16]
        /// How many effects the device holds at once (`EVIOCGEFFECTS`); at least 1.
        public var maximumEffects: UInt32
        /// USB-style vendor id reported by `EVIOCGID`.
        public var vendor: UInt16
        /// Product id reported by `EVIOCGID`.
        public var product: UInt16

        /// A rumble device with 16 slots, like the kernel's ff-memless gamepads.
        public init(
            name: String, effectTypes: [UInt16] = [UInt16(FF_RUMBLE)], maximumEffects: UInt32 = 16,
            vendor: UInt16 = 0x1209, product: UInt16 = 0x0001
        ) {
            self.name = name
            self.effectTypes = effectTypes
            self.maximumEffects = maximumEffects
            self.vendor = vendor
            self.product = product
        }
    }

    /// The configuration the device was created with.
    public let configuration: Configuration
    /// The device's event node, e.g. `/dev/input/event3`.
    public let eventNodePath: String

    private let device: FileDescriptor
    private let log: _RecordLog<UInputForceFeedbackRecord>
    private var reader: _SinkReader.Registration?

    /// The path of the uinput control node.
    public static let controlPath = "/dev/uinput"

    /// Creates the device and starts answering it.
    ///
    /// Raw uinput ioctls rather than `libevdev_uinput_create_from_device`: libevdev picks
    /// `ff_effects_max` itself (10), and the sink's slot count is the point of its configuration.
    ///
    /// The corresponding ioctls are `UI_SET_EVBIT`, `UI_SET_FFBIT`, `UI_DEV_SETUP` and `UI_DEV_CREATE`.
    public init(_ configuration: Configuration) throws(SystemCallError) {
        precondition(configuration.maximumEffects > 0, "a force-feedback device needs at least one effect slot")
        self.configuration = configuration
        let device = try FileDescriptor.open(Self.controlPath, .readWrite, options: [.nonBlocking, .closeOnExec])
        let log = _RecordLog<UInputForceFeedbackRecord>()
        var reader: _SinkReader.Registration?
        do throws(SystemCallError) {
            _ = try device.ioctl("UI_SET_EVBIT", CEvdev_UI_SET_EVBIT(), value: Int(EV_FF))
            for type in configuration.effectTypes {
                _ = try device.ioctl("UI_SET_FFBIT", CEvdev_UI_SET_FFBIT(), value: Int(type))
            }
            var setup = uinput_setup()
            setup.id.bustype = UInt16(BUS_VIRTUAL)
            setup.id.vendor = configuration.vendor
            setup.id.product = configuration.product
            setup.ff_effects_max = configuration.maximumEffects
            withUnsafeMutableBytes(of: &setup.name) { name in
                let bytes = Array(configuration.name.utf8.prefix(name.count - 1))
                name.copyBytes(from: bytes)
            }
            _ = try device.ioctl("UI_DEV_SETUP", CEvdev_UI_DEV_SETUP(), &setup)
            // Answer uploads from the first moment: an uploader blocks until we do. One thread
            // answers every sink of the process (32 pads, one wake-up per millisecond's writes).
            reader = try _SinkReader.shared.add(device) { Self.drain(device, into: log) }
            _ = try device.ioctl("UI_DEV_CREATE", CEvdev_UI_DEV_CREATE(), value: 0)
            // Found through the device's own sysfs name: a scan by name opens every event node, and
            // the 32nd sink of a run would open 31 others to find its own.
            let inputDevice = try Self.systemName(of: device)
            guard let path = try EventNodeLookup.waitForNode(inputDevice: inputDevice, timeout: .seconds(5)) else {
                throw SystemCallError(call: "UI_DEV_CREATE", errno: .operationNotSupportedByDevice)
            }
            self.eventNodePath = path
        } catch {
            if let reader { _SinkReader.shared.remove(reader) }
            try? device.close()
            throw error
        }
        self.device = device
        self.log = log
        self.reader = reader
    }

    deinit { close() }

    /// Every record so far, in the order the kernel delivered them.
    public var records: [UInputForceFeedbackRecord] { log.all }

    /// Waits until at least `count` records have arrived (or `timeout` passes) and returns all records.
    /// Play and stop reach the device synchronously with the trigger's `write()`, but are read by the
    /// sinks' reader thread, so a test waits for them instead of sleeping.
    @discardableResult
    public func waitForRecords(count: Int, timeout: Duration = .seconds(5)) -> [UInputForceFeedbackRecord] {
        log.wait(timeout: timeout) { $0.count >= count }.records
    }

    /// Destroys the device; its event node disappears and open descriptors on it get `ENODEV`.
    /// Idempotent; also done on deinit.
    ///
    /// The corresponding ioctl is `UI_DEV_DESTROY`.
    public func close() {
        guard let reader else { return }
        self.reader = nil
        // Destroying may itself ask us to erase effects still uploaded, so keep answering until
        // the device is gone, then stop answering it.
        _ = try? device.ioctl("UI_DEV_DESTROY", CEvdev_UI_DEV_DESTROY(), value: 0)
        _SinkReader.shared.remove(reader)
        try? device.close()
    }

    /// The created device's sysfs name (`input7`).
    ///
    /// The corresponding ioctl is `UI_GET_SYSNAME`.
    private static func systemName(of device: FileDescriptor) throws(SystemCallError) -> String {
        let name = UnsafeMutableRawBufferPointer.allocate(byteCount: 64, alignment: 1)
        defer { name.deallocate() }
        name.initializeMemory(as: UInt8.self, repeating: 0)
        _ = try device.ioctl("UI_GET_SYSNAME", CEvdev_UI_GET_SYSNAME(UInt32(name.count)), name.baseAddress)
        return String(decoding: name.prefix { $0 != 0 }, as: UTF8.self)
    }

    // MARK: Reader thread

    private static func drain(_ device: FileDescriptor, into log: _RecordLog<UInputForceFeedbackRecord>) {
        // uinput's queue holds only 16 events: read everything there is, every time.
        let events = UnsafeMutableBufferPointer<input_event>.allocate(capacity: 16)
        defer { events.deallocate() }
        let capacity = UnsafeMutableRawBufferPointer(events).count
        while true {
            guard let bytes = try? device.read(into: UnsafeMutableRawBufferPointer(events)), bytes > 0 else {
                return  // EAGAIN: drained. ENODEV: destroyed.
            }
            for index in 0..<bytes / MemoryLayout<input_event>.stride { handle(events[index], device, log) }
            // A short read took every queued event (uinput fills the buffer while it has any); what
            // arrives since makes the descriptor readable again. Saves a read that would say EAGAIN,
            // one system call a sink for each millisecond of writes at scale.
            if bytes < capacity { return }
        }
    }

    private static func handle(
        _ event: input_event, _ device: FileDescriptor, _ log: _RecordLog<UInputForceFeedbackRecord>
    ) {
        let timestamp = MonotonicInstant(nanoseconds: Int64(event.time.tv_sec) * 1_000_000_000 + Int64(event.time.tv_usec) * 1_000)
        func record(_ recorded: UInputForceFeedbackEvent) {
            log.append(UInputForceFeedbackRecord(event: recorded, timestamp: timestamp))
        }
        switch (CInt(event.type), CInt(event.code)) {
        case (EV_UINPUT, UI_FF_UPLOAD):
            var upload = uinput_ff_upload()
            upload.request_id = UInt32(bitPattern: event.value)
            guard (try? device.ioctl("UI_BEGIN_FF_UPLOAD", CEvdev_UI_BEGIN_FF_UPLOAD(), &upload)) != nil else { return }
            // The kernel zero-fills `old` for a new effect; effect types start at 0x50.
            let previous = upload.old.type == 0 ? nil : UploadedForceFeedbackEffect(upload.old)
            record(.upload(UploadedForceFeedbackEffect(upload.effect), previous: previous))
            upload.retval = 0
            _ = try? device.ioctl("UI_END_FF_UPLOAD", CEvdev_UI_END_FF_UPLOAD(), &upload)
        case (EV_UINPUT, UI_FF_ERASE):
            var erase = uinput_ff_erase()
            erase.request_id = UInt32(bitPattern: event.value)
            guard (try? device.ioctl("UI_BEGIN_FF_ERASE", CEvdev_UI_BEGIN_FF_ERASE(), &erase)) != nil else { return }
            record(.erase(effectID: Int16(truncatingIfNeeded: erase.effect_id)))
            erase.retval = 0
            _ = try? device.ioctl("UI_END_FF_ERASE", CEvdev_UI_END_FF_ERASE(), &erase)
        case (EV_FF, FF_GAIN):
            record(.gain(UInt16(truncatingIfNeeded: event.value)))
        case (EV_FF, FF_AUTOCENTER):
            record(.autocenter(UInt16(truncatingIfNeeded: event.value)))
        case (EV_FF, _):
            let id = Int16(truncatingIfNeeded: event.code)
            record(event.value > 0 ? .play(effectID: id, count: event.value) : .stop(effectID: id))
        default:
            break  // EV_SYN and anything else the kernel echoes are not force feedback.
        }
    }
}
