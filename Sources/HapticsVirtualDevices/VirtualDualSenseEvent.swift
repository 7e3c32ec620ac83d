/// What the kernel did with a ``VirtualDualSense``, in order.
public enum VirtualDualSenseEvent: Hashable, Sendable {
    /// `UHID_START`: a driver took the device.
    case started
    /// `UHID_STOP`: the driver let go.
    case stopped
    /// `UHID_OPEN`: someone opened one of its nodes (the driver keeps it open while bound).
    case opened
    /// `UHID_CLOSE`: the last user closed it.
    case closed
    /// `UHID_GET_REPORT` for a feature report, and whether it was answered with data.
    case featureReportRequested(reportID: UInt8, answered: Bool)
    /// `UHID_SET_REPORT`: the driver wrote a feature report (accepted).
    case featureReportWritten(reportID: UInt8)
    /// `UHID_OUTPUT`: an output report (rumble, lightbar, LEDs).
    case output(DualSenseOutputReport)
}
