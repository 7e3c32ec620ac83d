import HapticsSystem
import Testing

@Suite struct SystemErrnoTests {
    @Test func describesTheCodesEvdevReturnsByNameAndMessage() {
        #expect(Errno.operationNotSupportedByDevice.description == "ENODEV (No such device)")
        #expect(Errno.noSpace.description == "ENOSPC (No space left on device)")
        #expect(Errno.permissionDenied.description == "EACCES (Permission denied)")
        #expect(Errno.interrupted.description == "EINTR (Interrupted system call)")
        #expect(Errno(rawValue: 200).description == "errno 200 (Unknown error 200)")
    }

    @Test func aSystemCallErrorNamesTheCallAndTheErrno() {
        let error = SystemCallError(call: "EVIOCSFF", errno: .noSpace)
        #expect(error.description == "EVIOCSFF: ENOSPC (No space left on device)")
    }
}
