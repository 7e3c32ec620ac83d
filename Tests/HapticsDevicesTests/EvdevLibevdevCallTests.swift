import Glibc
import HapticsSystem
import Testing
@testable import HapticsDevices

/// libevdev returns 0 or a negative errno; the wrapper turns that into the typed error, named after
/// the libevdev function.
@Suite struct EvdevLibevdevCallTests {
    static let descriptor = FileDescriptor(rawValue: 0)

    @Test func aNegativeErrnoBecomesASystemCallErrorNamedAfterTheFunction() {
        #expect(throws: SystemCallError(call: "libevdev_set_clock_id", errno: .invalidArgument)) {
            try _libevdevCall("libevdev_set_clock_id", on: Self.descriptor) { -EINVAL }
        }
        #expect(throws: SystemCallError(call: "libevdev_new_from_fd", errno: .noMemory)) {
            try _libevdevCall("libevdev_new_from_fd", on: Self.descriptor) { -ENOMEM }
        }
    }

    @Test func zeroAndPositiveResultsAreReturned() throws {
        #expect(try _libevdevCall("libevdev_set_clock_id", on: Self.descriptor) { 0 } == 0)
        #expect(try _libevdevCall("libevdev_has_event_pending", on: Self.descriptor) { 1 } == 1)
    }

    @Test func anInterruptedLibevdevCallIsCalledAgain() throws {
        var calls = 0
        let result = try _libevdevCall("libevdev_new_from_fd", on: Self.descriptor) {
            calls += 1
            return calls == 1 ? -EINTR : 0
        }
        #expect(result == 0)
        #expect(calls == 2)
    }

    #if DEBUG
    @Test func theMockingSeamRecordsAndFailsLibevdevCallsByName() {
        let driver = SystemCallMocking.Driver()
        driver.force(.operationNotSupportedByDevice, on: "libevdev_set_clock_id")
        var reached = false
        #expect(throws: SystemCallError(call: "libevdev_set_clock_id", errno: .operationNotSupportedByDevice)) {
            try SystemCallMocking.withDriver(driver) {
                try _libevdevCall("libevdev_set_clock_id", on: FileDescriptor(rawValue: 9)) { reached = true; return 0 }
            }
        }
        #expect(!reached)
        #expect(driver.records.map(\.description) == ["libevdev_set_clock_id(9) → ENODEV (No such device)"])
    }
    #endif
}
