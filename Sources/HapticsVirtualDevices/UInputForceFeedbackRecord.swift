/// One ``UInputForceFeedbackEvent`` with the kernel's timestamp.
public struct UInputForceFeedbackRecord: Hashable, Sendable {
    /// What happened.
    public var event: UInputForceFeedbackEvent
    /// When the kernel delivered it to the device, `CLOCK_MONOTONIC` nanoseconds. For play and stop
    /// this is the moment the trigger's `write()` reached the kernel.
    public var timestampNanoseconds: Int64

    /// Creates a record.
    public init(event: UInputForceFeedbackEvent, timestampNanoseconds: Int64) {
        self.event = event
        self.timestampNanoseconds = timestampNanoseconds
    }
}
