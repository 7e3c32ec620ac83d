import CEvdev
import Glibc
import HapticsDevices
import Testing
import HapticsSystem
import HapticsTestSupport

@Suite struct EvdevDeviceErrorTests {
    @Test func permissionDeniedPointsAtTheUdevRule() {
        #expect(DeviceError.permissionDenied(path: "/dev/input/event7").description
            == "/dev/input/event7: permission denied; install Tools/udev/70-haptics.rules (TAG+=\"uaccess\" for force-feedback event nodes) and re-plug the device, or add yourself to the 'input' group")
    }

    @Test func systemCallFailuresMapToDeviceErrors() {
        let path = "/dev/input/event7"
        #expect(DeviceError(path: path, failure: SystemCallError(call: "open", errno: .permissionDenied)) == .permissionDenied(path: path))
        #expect(DeviceError(path: path, failure: SystemCallError(call: "open", errno: .notPermitted)) == .permissionDenied(path: path))
        let gone = SystemCallError(call: "write", errno: .operationNotSupportedByDevice)
        #expect(DeviceError(path: path, failure: gone) == .deviceLost(path: path, gone))
        #expect(DeviceError(path: path, failure: gone).description == "/dev/input/event7: device lost (write: ENODEV (No such device))")
        let full = SystemCallError(call: "EVIOCSFF", errno: .noSpace)
        #expect(DeviceError(path: path, failure: full) == .systemCall(path: path, full))
    }

    @Test func aNodeThatIsNotAnInputDeviceIsNotListed() throws {
        let directory = try TemporaryFolder()
        try directory.write([], to: "event3")
        // libevdev's first ioctl on a regular file fails with ENOTTY: nothing to drive, nothing listed.
        #expect(DeviceCatalog.discover(directory: directory.path) == [])
        #expect(throws: DeviceError.systemCall(path: directory.path + "/event3",
                                               SystemCallError(call: "libevdev_new_from_fd", errno: .inappropriateIOCTLForDevice))) {
            try EvdevDevice(path: directory.path + "/event3")
        }
    }

    #if DEBUG
    @Test func openingWithoutPermissionThrowsPermissionDenied() throws {
        let driver = SystemCallMocking.Driver()
        driver.force(.permissionDenied, on: "open")
        #expect(throws: DeviceError.permissionDenied(path: "/dev/input/event7")) {
            try SystemCallMocking.withDriver(driver) { try EvdevDevice(path: "/dev/input/event7") }
        }
        #expect(driver.records.map(\.description) == ["open(-1) → EACCES (Permission denied)"])
    }

    @Test func aDeviceLostWhileLibevdevReadsItIsDeviceLostAndItsDescriptorIsClosed() throws {
        let directory = try TemporaryFolder()
        try directory.write([], to: "event4")
        let path = directory.path + "/event4"
        let driver = SystemCallMocking.Driver()
        driver.force(.operationNotSupportedByDevice, on: "libevdev_new_from_fd")
        #expect(throws: DeviceError.deviceLost(path: path, SystemCallError(call: "libevdev_new_from_fd", errno: .operationNotSupportedByDevice))) {
            try SystemCallMocking.withDriver(driver) { try EvdevDevice(path: path) }
        }
        #expect(driver.records.map(\.call) == ["open", "libevdev_new_from_fd", "close"])
        #expect(driver.records.map(\.forcedErrno) == [nil, .operationNotSupportedByDevice, nil])
    }

    @Test func libevdevCallsGoThroughTheFunnelSoAnInterruptionIsRetried() throws {
        let directory = try TemporaryFolder()
        try directory.write([], to: "event5")
        let path = directory.path + "/event5"
        let driver = SystemCallMocking.Driver()
        driver.force(.interrupted, on: "libevdev_new_from_fd")
        // The retry reaches libevdev, whose first ioctl on a regular file says ENOTTY.
        #expect(throws: DeviceError.systemCall(path: path, SystemCallError(call: "libevdev_new_from_fd", errno: .inappropriateIOCTLForDevice))) {
            try SystemCallMocking.withDriver(driver) { try EvdevDevice(path: path) }
        }
        #expect(driver.records.map(\.call) == ["open", "libevdev_new_from_fd", "libevdev_new_from_fd", "close"])
    }

    @Test func aPermissionRefusedToLibevdevPointsAtTheUdevRule() throws {
        let directory = try TemporaryFolder()
        try directory.write([], to: "event6")
        let path = directory.path + "/event6"
        let driver = SystemCallMocking.Driver()
        driver.force(.permissionDenied, on: "libevdev_new_from_fd")
        #expect(throws: DeviceError.permissionDenied(path: path)) {
            try SystemCallMocking.withDriver(driver) { try EvdevDevice(path: path) }
        }
    }

    @Test func unreadableNodesAreListedWithTheirErrorInNumericOrder() throws {
        let directory = try TemporaryFolder()
        for name in ["event10", "event3", "mouse0", "js0"] { try directory.write([], to: name) }
        let driver = SystemCallMocking.Driver()
        // Read-write and read-only opens of both event nodes are refused.
        driver.force(.permissionDenied, on: "open", count: 4)

        let found = SystemCallMocking.withDriver(driver) { DeviceCatalog.discover(directory: directory.path) }

        let unknown = InputID(bus: 0, vendor: 0, product: 0, version: 0)
        #expect(found == ["event3", "event10"].map { name in
            let path = directory.path + "/" + name
            return EvdevDeviceInfo(path: path, name: "", id: unknown, physicalLocation: "", uniqueIdentifier: "",
                                   forceFeedbackCodes: [], slots: 0, accessError: .permissionDenied(path: path))
        })
        #expect(driver.records.map(\.call) == ["open", "open", "open", "open"])
    }
    #endif
}
