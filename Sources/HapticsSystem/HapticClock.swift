/// A source of `CLOCK_MONOTONIC` instants.
///
/// The scheduler is generic over its clock so that scheduling logic is tested with a `ManualClock`
/// that only moves when the test says so; only the realtime loop pairs it with real sleeping.
public protocol HapticClock: Sendable {
    /// The current instant. Called on the realtime thread: must not allocate, lock or log.
    func now() -> MonotonicInstant
}
