import CEvdev
import Glibc
import HapticsDevices
import HapticsRendering
import HapticsSystem
import Testing
import HapticsVirtualDevices

@Suite(.requiresKernelTestbench, .serialized)
struct EvdevDiscoveryKernelTests {
    @Test func discoveryDescribesAUInputSinkAndPicksTheGenericRumbleProfile() throws {
        let sink = try UInputForceFeedbackSink(.init(name: "haptics-test discovery sink", maximumEffects: 16))
        defer { sink.close() }

        let found = try #require(DeviceCatalog.discover().first { $0.path == sink.eventNodePath })
        #expect(found == EvdevDeviceInfo(
            path: sink.eventNodePath, name: "haptics-test discovery sink",
            id: InputID(bus: UInt16(BUS_VIRTUAL), vendor: 0x1209, product: 0x0001, version: 0),
            physicalLocation: "", uniqueIdentifier: "", forceFeedbackCodes: [.rumble], slots: 16))
        var expected = DeviceProfile.genericRumble
        expected.limits.slots = 16
        #expect(DeviceCatalog.profile(for: found) == expected)
        // Discovery lists only force-feedback nodes, sorted by node number.
        let paths = DeviceCatalog.discover().map(\.path)
        #expect(paths == paths.sorted { Int($0.dropFirst(16))! < Int($1.dropFirst(16))! })
    }

    #if DEBUG
    @Test func openingReadsThroughLibevdevAndEachFailureNamesItsCall() throws {
        let sink = try UInputForceFeedbackSink(.init(name: "haptics-test libevdev open sink", maximumEffects: 4))
        defer { sink.close() }
        let path = sink.eventNodePath

        // A real node: libevdev describes it, the slot count is the one ioctl it has no call for,
        // and libevdev sets the event clock.
        let recorder = SystemCallMocking.Driver()
        let device = try SystemCallMocking.withDriver(recorder) { try EvdevDevice(path: path) }
        device.close()
        #expect(recorder.records.map(\.call) == ["open", "libevdev_new_from_fd", "EVIOCGEFFECTS", "libevdev_set_clock_id"])
        #expect(device.info.name == "haptics-test libevdev open sink")
        #expect(device.info.slots == 4)

        for call in ["libevdev_new_from_fd", "EVIOCGEFFECTS", "libevdev_set_clock_id"] {
            let driver = SystemCallMocking.Driver()
            driver.force(.invalidArgument, on: call)
            #expect(throws: DeviceError.systemCall(path: path, SystemCallError(call: call, errno: .invalidArgument))) {
                try SystemCallMocking.withDriver(driver) { try EvdevDevice(path: path) }
            }
            // The descriptor is closed after every failure.
            #expect(driver.records.last?.call == "close")
        }
    }
    #endif

    @Test func aOneSlotSinkGetsAProfileWithOneSlot() throws {
        let sink = try UInputForceFeedbackSink(.init(name: "haptics-test one-slot discovery", maximumEffects: 1))
        defer { sink.close() }
        let device = try EvdevDevice(path: sink.eventNodePath)
        defer { device.close() }
        #expect(device.info.slots == 1)
        #expect(DeviceCatalog.profile(for: device.info).limits.slots == 1)
        #expect(DeviceCatalog.profile(for: device.info).name == "generic-rumble")
    }

    @Test func theVirtualDualSenseIsRecognisedByVendorAndProduct() throws {
        let controller = try VirtualDualSense()
        defer { controller.close() }
        let node = try #require(try controller.waitForGamepadNode())
        let device = try EvdevDevice(path: node)
        defer { device.close() }

        #expect(device.info.name == VirtualDualSense.deviceName)
        let id = device.info.id
        // hid-playstation sets the version's top bit (0x0100 created → 0x8100) to tell its nodes from hid-sony's.
        #expect([id.bus, id.vendor, id.product, id.version] == [UInt16(BUS_USB), 0x054C, 0x0CE6, 0x8100])
        #expect(device.info.uniqueIdentifier == controller.uniqueIdentifier)
        #expect(device.info.physicalLocation == "")  // hid-playstation gives its nodes no phys.
        #expect(device.info.slots == 16)
        #expect(device.info.supportsRumble && device.info.supportsGain)
        var expected = DeviceProfile.dualSense
        expected.limits.slots = 16
        #expect(DeviceCatalog.profile(for: device.info) == expected)
        // The driver's motion sensor and touchpad nodes have no force feedback and are not listed.
        #expect(DeviceCatalog.discover().filter { $0.name.hasPrefix(VirtualDualSense.deviceName) }.map(\.path) == [node])
    }

    @Test func openingANodeWithoutPermissionGivesTheDocumentedError() throws {
        let sink = try UInputForceFeedbackSink(.init(name: "haptics-test permission sink", maximumEffects: 4))
        defer { sink.close() }
        let path = sink.eventNodePath
        // devtmpfs creates event nodes root-owned with mode 0600; an ordinary user may not open them.
        var status = stat()
        try #require(stat(path, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600)
        #expect(status.st_uid == 0)

        let outcome = JoinedValue<(String, [EvdevDeviceInfo])>()
        let ran = EvdevKernel.asUnprivilegedUser {
            let opened: String
            do throws(DeviceError) {
                let device = try EvdevDevice(path: path)
                device.close()
                opened = "opened"
            } catch {
                opened = error.description
            }
            outcome.value = (opened, DeviceCatalog.discover().filter { $0.path == path })
        }
        try #require(ran)
        let (opened, listed) = try #require(outcome.value)

        #expect(opened == "\(path): permission denied; install Tools/udev/70-haptics.rules (TAG+=\"uaccess\" for force-feedback event nodes) and re-plug the device, or add yourself to the 'input' group")
        // The node cannot be read at all; sysfs, readable by everyone, still names the device.
        #expect(listed.count == 1)
        #expect(listed.first?.name == "haptics-test permission sink")
        #expect(listed.first?.id == InputID(bus: 0x06, vendor: 0x1209, product: 0x0001, version: 0))
        #expect(listed.first?.forceFeedbackCodes.contains(.rumble) == true)
        #expect(listed.first?.slots == 0)
        #expect(listed.first?.accessError == .permissionDenied(path: path))
        // Root, on this thread, still opens it: the refusal was the permission, nothing else.
        let device = try EvdevDevice(path: path)
        device.close()
    }
}
