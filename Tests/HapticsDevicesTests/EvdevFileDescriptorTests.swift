import CEvdev
import Glibc
import HapticsDevices
import Testing
import HapticsSystem

@Suite struct EvdevFileDescriptorTests {
    /// A pipe from the real kernel: reads and writes that are not forced still happen.
    static func makePipe() throws -> (read: FileDescriptor, write: FileDescriptor) {
        var ends: [CInt] = [-1, -1]
        try #require(pipe(&ends) == 0)
        _ = fcntl(ends[0], F_SETFL, O_NONBLOCK)
        return (FileDescriptor(rawValue: ends[0]), FileDescriptor(rawValue: ends[1]))
    }

    @Test func readingAnEmptyNonBlockingPipeThrowsWouldBlockNamedAfterTheCall() throws {
        let (reader, writer) = try Self.makePipe()
        defer { try? reader.close(); try? writer.close() }
        var byte: UInt8 = 0
        #expect(throws: SystemCallError(call: "read", errno: .wouldBlock)) {
            _ = try withUnsafeMutableBytes(of: &byte) { try reader.read(into: $0) }
        }
    }

    @Test func writeInputEventWritesExactlyOneInputEvent() throws {
        let (reader, writer) = try Self.makePipe()
        defer { try? reader.close(); try? writer.close() }
        try writer.writeInputEvent(type: UInt16(EV_FF), code: 3, value: 1)

        var event = input_event()
        let count = try withUnsafeMutableBytes(of: &event) { try reader.read(into: $0) }
        #expect(count == MemoryLayout<input_event>.size)
        #expect(event.type == UInt16(EV_FF))
        #expect(event.code == 3)
        #expect(event.value == 1)
    }

    @Test func aBadFileDescriptorTrapsInsteadOfThrowing() async {
        // EBADF means the program lost track of its descriptors: carrying on could hit a reused one.
        await #expect(processExitsWith: .failure) {
            _ = try? FileDescriptor(rawValue: 1_000_000).writeInputEvent(type: 0x15, code: 0, value: 1)
        }
    }

    #if DEBUG
    @Test func interruptedWritesAreRetriedUntilTheyComplete() throws {
        let (reader, writer) = try Self.makePipe()
        defer { try? reader.close(); try? writer.close() }
        let driver = SystemCallMocking.Driver()
        driver.force(.interrupted, on: "write", count: 2)

        let written = try SystemCallMocking.withDriver(driver) {
            try [UInt8]([1, 2, 3]).withUnsafeBytes { try writer.write($0) }
        }

        #expect(written == 3)
        #expect(driver.records.map(\.description) == [
            "write(\(writer.rawValue)) → EINTR (Interrupted system call)",
            "write(\(writer.rawValue)) → EINTR (Interrupted system call)",
            "write(\(writer.rawValue))",
        ])
        var received = [UInt8](repeating: 0, count: 3)
        #expect(try received.withUnsafeMutableBytes { try reader.read(into: $0) } == 3)
        #expect(received == [1, 2, 3])
    }

    @Test func closeIsNotRetriedOnInterrupt() throws {
        let (reader, writer) = try Self.makePipe()
        defer { try? reader.close(); try? writer.close() }
        let driver = SystemCallMocking.Driver()
        driver.force(.interrupted, on: "close")

        #expect(throws: SystemCallError(call: "close", errno: .interrupted)) {
            try SystemCallMocking.withDriver(driver) { try reader.close() }
        }
        #expect(driver.records.count == 1)
    }

    @Test func forcedDeviceErrorsAreTypedAndNameTheIoctl() throws {
        let driver = SystemCallMocking.Driver()
        driver.force(.noSpace, on: "EVIOCSFF")
        driver.force(.operationNotSupportedByDevice, on: "write")
        driver.force(.permissionDenied, on: "open")
        let device = FileDescriptor(rawValue: 1_000_000)  // Never reached: every call is forced.

        SystemCallMocking.withDriver(driver) {
            var effect = ff_effect()
            effect.type = UInt16(FF_RUMBLE)
            effect.id = -1
            #expect(throws: SystemCallError(call: "EVIOCSFF", errno: .noSpace)) { try device.uploadEffect(&effect) }
            #expect(effect.id == -1)
            #expect(throws: SystemCallError(call: "write", errno: .operationNotSupportedByDevice)) {
                try device.writeInputEvent(type: UInt16(EV_FF), code: 0, value: 1)
            }
            #expect(throws: SystemCallError(call: "open", errno: .permissionDenied)) {
                _ = try FileDescriptor.open("/dev/input/event0", .readWrite)
            }
        }
        #expect(driver.records.map(\.call) == ["EVIOCSFF", "write", "open"])
        #expect(driver.records.map(\.forcedErrno) == [.noSpace, .operationNotSupportedByDevice, .permissionDenied])
    }

    @Test func callsOutsideTheDriversScopeAreNotRecorded() throws {
        let (reader, writer) = try Self.makePipe()
        defer { try? reader.close(); try? writer.close() }
        let driver = SystemCallMocking.Driver()
        _ = try [UInt8]([7]).withUnsafeBytes { try writer.write($0) }
        #expect(driver.records.isEmpty)
    }
    #endif
}
