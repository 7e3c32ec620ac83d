import CEvdev
import Glibc
import Synchronization
import HapticsSystem

/// A DualSense controller on USB or Bluetooth, made with uhid, that the kernel's own
/// hid-playstation driver binds.
///
/// It presents the controller's USB report descriptor (on Bluetooth, one declaring the reports the
/// drivers use) and answers the feature reports the driver reads while probing (pairing 0x09,
/// firmware 0x20, calibration 0x05), so the driver creates its evdev gamepad node with force
/// feedback through ff-memless. On request it also sends input reports at a steady rate, as a
/// controller does: SDL's HIDAPI driver reads one to tell the connection. Every report sent back —
/// rumble and lights, from the driver or through hidraw — is recorded, so tests read the exact
/// motor bytes a controller would receive.
/// ``unplug()`` removes it as if the cable were pulled. Needs write access to `/dev/uhid` and the
/// `hid-playstation` module loaded before creation (otherwise `hid-generic` binds).
public final class VirtualDualSense: @unchecked Sendable {
    /// The name the controller reports, and the name of the driver's gamepad event node.
    public static let deviceName = "Sony Interactive Entertainment Wireless Controller"
    /// Sony's USB vendor id.
    public static let vendorID: UInt32 = 0x054C
    /// The DualSense's USB product id.
    public static let productID: UInt32 = 0x0CE6
    /// The path of the uhid control node.
    public static let controlPath = "/dev/uhid"

    /// The MAC address given in the pairing report, least significant byte first (as on the wire).
    public let macAddress: [UInt8]
    /// The firmware update version reported in feature report 0x20.
    public let firmwareUpdateVersion: UInt16
    /// The hardware version reported in feature report 0x20.
    public let hardwareVersion: UInt32 = 0x0000_0411
    /// The firmware version reported in feature report 0x20.
    public let firmwareVersion: UInt32 = 0x0110_002A
    /// The bus the controller is on.
    public let connection: Connection

    private let device: FileDescriptor
    private let log: _RecordLog<VirtualDualSenseEvent>
    private let requestBuffer: UnsafeMutableRawPointer
    private let state = OrderedMutex(_State())
    private var reader: _DeviceReaderThread?
    /// The reader thread's own event buffers (read, reply, input), freed once the thread has stopped.
    private var readerBuffers: (UnsafeMutableRawPointer, UnsafeMutableRawPointer, UnsafeMutableRawPointer)?

    private struct _State {
        var isPlugged = true
        var isOpen = true
    }

    /// The unique identifier the driver derives from the MAC address (`EVIOCGUNIQ` of its nodes),
    /// most significant byte first, e.g. `"c0:ff:ee:00:00:01"`.
    public var uniqueIdentifier: String {
        macAddress.reversed().map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }.joined(separator: ":")
    }

    /// Plugs in a virtual DualSense.
    ///
    /// - Parameters:
    ///   - macAddress: six bytes, least significant first; by default one unique to this process
    ///     and instance (the driver rejects duplicates).
    ///   - firmwareUpdateVersion: 0x0215 and later make the driver use the "compatible vibration 2"
    ///     rumble flags (byte 39), as current controllers do; earlier versions the original ones.
    ///   - connection: USB (the default) or Bluetooth.
    ///   - inputReportInterval: when given, an input report (sticks centred, nothing pressed) every
    ///     interval once the kernel has started the device; by default none, as before a user
    ///     touches the pad.
    ///
    /// The corresponding uhid request is `UHID_CREATE2`.
    public init(
        macAddress: [UInt8]? = nil, firmwareUpdateVersion: UInt16 = 0x0224, connection: Connection = .usb,
        inputReportInterval: Duration? = nil
    ) throws(SystemCallError) {
        precondition(macAddress.map { $0.count == 6 } ?? true, "a MAC address has 6 bytes")
        self.macAddress = macAddress ?? Self.nextMACAddress()
        self.firmwareUpdateVersion = firmwareUpdateVersion
        self.connection = connection
        let eventSize = CEvdev_uhidEventSize()
        requestBuffer = .allocate(byteCount: eventSize, alignment: 8)
        let device: FileDescriptor
        do throws(SystemCallError) {
            device = try FileDescriptor.open(Self.controlPath, .readWrite, options: [.nonBlocking, .closeOnExec])
        } catch {
            requestBuffer.deallocate()
            throw error
        }
        self.device = device
        let log = _RecordLog<VirtualDualSenseEvent>()
        self.log = log
        do throws(SystemCallError) {
            // The probe blocks on our answers to its feature reports: answer from the first moment.
            let replies = Replies(
                pairing: Self.framedFeatureReport(pairingReport(), on: connection),
                firmware: Self.framedFeatureReport(firmwareReport(), on: connection),
                calibration: Self.framedFeatureReport(calibrationReport(), on: connection))
            let readBuffer = UnsafeMutableRawPointer.allocate(byteCount: eventSize, alignment: 8)
            let replyBuffer = UnsafeMutableRawPointer.allocate(byteCount: eventSize, alignment: 8)
            let inputBuffer = UnsafeMutableRawPointer.allocate(byteCount: eventSize, alignment: 8)
            readerBuffers = (readBuffer, replyBuffer, inputBuffer)
            // The reader thread owns the input sequence number: ticks and reads never overlap.
            let input = _InputReports(connection: connection, buffer: inputBuffer, device: device)
            reader = try _DeviceReaderThread(
                name: "haptics-uhid", device: device, every: inputReportInterval,
                tick: inputReportInterval.map { _ in { input.send() } }
            ) {
                Self.drain(device, readBuffer: readBuffer, replyBuffer: replyBuffer, replies: replies, input: input, log: log)
            }
            let descriptor = connection.reportDescriptor
            let uniq = uniqueIdentifier
            let physical = connection == .usb ? "haptics-virtual/usb0" : "haptics-virtual/bluetooth0"
            let filled = descriptor.withUnsafeBufferPointer { bytes in
                CEvdev_uhidMakeCreate2(requestBuffer, Self.deviceName, physical, uniq,
                                       bytes.baseAddress, UInt16(bytes.count), connection.bus,
                                       Self.vendorID, Self.productID, 0x0100)
            }
            precondition(filled == 0, "the DualSense report descriptor fits a uhid request")
            try sendRequest("UHID_CREATE2")
        } catch {
            close()
            throw error
        }
    }

    deinit {
        close()
        requestBuffer.deallocate()
    }

    /// Everything the kernel did with the device so far.
    public var events: [VirtualDualSenseEvent] { log.all }

    /// The output reports received so far (rumble and lights), in order.
    public var outputReports: [DualSenseOutputReport] {
        log.all.compactMap { if case .output(let report) = $0 { report } else { nil } }
    }

    /// Waits until `isComplete` holds for the output reports received so far (or `timeout`
    /// passes) and returns them. The driver sends reports from a kernel worker, after the
    /// trigger's `write()` has returned, so tests wait for them instead of sleeping.
    @discardableResult
    public func waitForOutputReports(
        timeout: Duration = .seconds(5), until isComplete: ([DualSenseOutputReport]) -> Bool
    ) -> [DualSenseOutputReport] {
        func outputs(_ events: [VirtualDualSenseEvent]) -> [DualSenseOutputReport] {
            events.compactMap { if case .output(let report) = $0 { report } else { nil } }
        }
        return outputs(log.wait(timeout: timeout) { isComplete(outputs($0)) }.records)
    }

    /// Waits until the driver has created the gamepad's event node and returns its path, or `nil`
    /// after `timeout`. The node is matched by name and by this controller's unique identifier.
    public func waitForGamepadNode(timeout: Duration = .seconds(10)) throws(SystemCallError) -> String? {
        try EventNodeLookup.waitForNode(name: Self.deviceName, uniqueIdentifier: uniqueIdentifier, timeout: timeout)
    }

    /// Waits for the gamepad's event node, then returns the controller's hidraw node
    /// (`/dev/hidraw1`): the node SDL's HIDAPI backend opens and names in `SDL_JoystickPath`.
    /// Found through sysfs, where both hang under the same HID device; `nil` after `timeout`.
    public func waitForHidrawNode(timeout: Duration = .seconds(10)) throws(SystemCallError) -> String? {
        guard let gamepad = try waitForGamepadNode(timeout: timeout) else { return nil }
        let event = gamepad.split(separator: "/").last.map(String.init) ?? gamepad
        let entries = FileDescriptor.numberedEntries(in: "/sys/class/input/\(event)/device/device/hidraw", prefix: "hidraw")
        guard let entry = entries.first, let name = entry.split(separator: "/").last else { return nil }
        let path = "/dev/\(name)"
        return access(path, F_OK) == 0 ? path : nil
    }

    /// Unplugs the controller: the driver unbinds, its nodes disappear, and descriptors still open
    /// on them fail with `ENODEV`. Idempotent.
    ///
    /// The corresponding uhid request is `UHID_DESTROY`.
    public func unplug() throws(SystemCallError) {
        let wasPlugged = state.withLock { state in
            defer { state.isPlugged = false }
            return state.isPlugged
        }
        guard wasPlugged else { return }
        CEvdev_uhidMakeDestroy(requestBuffer)
        try sendRequest("UHID_DESTROY")
    }

    /// Unplugs (closing uhid destroys the device), stops answering and releases the descriptor.
    /// Idempotent; also done on deinit.
    public func close() {
        let wasOpen = state.withLock { state in
            defer { state.isOpen = false }
            return state.isOpen
        }
        guard wasOpen else { return }
        // Keep answering while the driver unbinds, then stop the thread.
        try? unplug()
        reader?.stop()
        reader = nil
        try? device.close()
        if let (readBuffer, replyBuffer, inputBuffer) = readerBuffers {
            readBuffer.deallocate()
            replyBuffer.deallocate()
            inputBuffer.deallocate()
            readerBuffers = nil
        }
    }

    private func sendRequest(_ name: StaticString) throws(SystemCallError) {
        let size = CEvdev_uhidEventSize()
        _ = try _SystemCall.run(name, fileDescriptor: device.rawValue) {
            Glibc.write(device.rawValue, requestBuffer, size)
        }
    }

    // MARK: Reader thread

    /// The input reports the reader thread sends, and their sequence number.
    private final class _InputReports: @unchecked Sendable {
        let connection: Connection
        let buffer: UnsafeMutableRawPointer
        let device: FileDescriptor
        var sequence: UInt8 = 0
        /// Between `UHID_START` and `UHID_STOP`: before and after, uhid refuses input.
        var isStarted = false

        init(connection: Connection, buffer: UnsafeMutableRawPointer, device: FileDescriptor) {
            self.connection = connection
            self.buffer = buffer
            self.device = device
        }

        /// Sends the next report while the kernel has the device started. A report the kernel
        /// refuses is dropped, as a controller's would be.
        func send() {
            guard isStarted else { return }
            let report = VirtualDualSense.inputReport(sequence: sequence, on: connection)
            sequence &+= 1
            _ = report.withUnsafeBufferPointer { bytes in
                CEvdev_uhidMakeInput2(buffer, bytes.baseAddress, UInt16(bytes.count))
            }
            _ = try? _SystemCall.run("UHID_INPUT2", fileDescriptor: device.rawValue) {
                Glibc.write(device.rawValue, buffer, CEvdev_uhidEventSize())
            }
        }
    }

    private struct Replies: Sendable {
        var pairing: [UInt8]
        var firmware: [UInt8]
        var calibration: [UInt8]

        func report(_ id: UInt8) -> [UInt8]? {
            switch id {
            case 0x09: pairing
            case 0x20: firmware
            case 0x05: calibration
            default: nil
            }
        }
    }

    private static func drain(
        _ device: FileDescriptor, readBuffer: UnsafeMutableRawPointer, replyBuffer: UnsafeMutableRawPointer,
        replies: Replies, input: _InputReports, log: _RecordLog<VirtualDualSenseEvent>
    ) {
        let size = CEvdev_uhidEventSize()
        while true {
            guard let count = try? device.read(into: UnsafeMutableRawBufferPointer(start: readBuffer, count: size)),
                  count > 0
            else { return }  // EAGAIN: drained.
            let receivedAt = MonotonicInstant.now
            switch CEvdev_uhidEventType(readBuffer) {
            case UHID_START.rawValue:
                input.isStarted = true
                log.append(.started)
            case UHID_STOP.rawValue:
                input.isStarted = false
                log.append(.stopped)
            case UHID_OPEN.rawValue: log.append(.opened)
            case UHID_CLOSE.rawValue: log.append(.closed)
            case UHID_OUTPUT.rawValue:
                var length: UInt16 = 0
                let data = CEvdev_uhidOutputData(readBuffer, &length)!
                let bytes = Array(UnsafeBufferPointer(start: data, count: Int(length)))
                log.append(.output(DualSenseOutputReport(bytes: bytes, receivedAt: receivedAt)))
            case UHID_GET_REPORT.rawValue:
                var requestID: UInt32 = 0, reportNumber: UInt8 = 0, reportType: UInt8 = 0
                CEvdev_uhidGetReportRequest(readBuffer, &requestID, &reportNumber, &reportType)
                let report = reportType == UInt8(UHID_FEATURE_REPORT.rawValue) ? replies.report(reportNumber) : nil
                log.append(.featureReportRequested(reportID: reportNumber, answered: report != nil))
                // Unknown reports get EIO, as a controller that does not have them would answer.
                let reply = report ?? []
                _ = reply.withUnsafeBufferPointer { bytes in
                    CEvdev_uhidMakeGetReportReply(replyBuffer, requestID, report == nil ? UInt16(EIO) : 0,
                                                  bytes.baseAddress, UInt16(bytes.count))
                }
                _ = try? _SystemCall.run("UHID_GET_REPORT_REPLY", fileDescriptor: device.rawValue) {
                    Glibc.write(device.rawValue, replyBuffer, size)
                }
            case UHID_SET_REPORT.rawValue:
                var requestID: UInt32 = 0, reportNumber: UInt8 = 0
                CEvdev_uhidSetReportRequest(readBuffer, &requestID, &reportNumber)
                log.append(.featureReportWritten(reportID: reportNumber))
                CEvdev_uhidMakeSetReportReply(replyBuffer, requestID, 0)
                _ = try? _SystemCall.run("UHID_SET_REPORT_REPLY", fileDescriptor: device.rawValue) {
                    Glibc.write(device.rawValue, replyBuffer, size)
                }
            default:
                break
            }
        }
    }

    private static let instanceCounter = Atomic<UInt16>(0)

    /// A locally administered unicast address, unique per process id and instance.
    private static func nextMACAddress() -> [UInt8] {
        let instance = instanceCounter.add(1, ordering: .relaxed).newValue
        let process = UInt32(truncatingIfNeeded: getpid())
        // Least significant byte first; the last byte is the most significant one on the wire
        // (0x02: locally administered, unicast).
        return [UInt8(truncatingIfNeeded: instance), UInt8(truncatingIfNeeded: instance >> 8),
                UInt8(truncatingIfNeeded: process), UInt8(truncatingIfNeeded: process >> 8),
                UInt8(truncatingIfNeeded: process >> 16), 0x02]
    }
}
