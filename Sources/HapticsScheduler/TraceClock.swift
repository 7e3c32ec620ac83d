@_spi(Realtime) import HapticsSystem

/// The scheduler's clock for the processing parts that stamp trace records (``ChannelHolds``):
/// read only while tracing is on.
final class TraceClock {
    let clock: any HapticClock

    init(_ clock: any HapticClock) { self.clock = clock }

    /// The current instant.
    func now() -> MonotonicInstant { clock.now() }
}
