import HapticsSystem

extension DeviceError {
    /// The device error a failed call on the node at `path` means: `EACCES`/`EPERM` is a missing
    /// permission (see the udev rule), `ENODEV` an unplugged device, anything else the call's errno.
    public init(path: String, failure: SystemCallError) {
        switch failure.errno {
        case .permissionDenied, .notPermitted: self = .permissionDenied(path: path)
        case .operationNotSupportedByDevice: self = .deviceLost(path: path, failure)
        default: self = .systemCall(path: path, failure)
        }
    }
}
