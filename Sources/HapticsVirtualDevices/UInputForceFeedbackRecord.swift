import HapticsSystem

/// One ``UInputForceFeedbackEvent`` with the kernel's timestamp.
public struct UInputForceFeedbackRecord: Hashable, Sendable {
    /// What happened.
    public var event: UInputForceFeedbackEvent
    /// When the kernel delivered it to the device, on `CLOCK_MONOTONIC` (the kernel's stamp, to the
    /// microsecond). For play and stop this is the moment the trigger's `write()` reached the kernel.
    public var timestamp: MonotonicInstant

    /// Creates a record.
    public init(event: UInputForceFeedbackEvent, timestamp: MonotonicInstant) {
        self.event = event
        self.timestamp = timestamp
    }
}
