@_spi(Realtime) import HapticsSystem

/// The scheduler's clock for the processing parts that are not generic over it (``ChannelHolds``),
/// which read it only for trace records.
///
/// A class so that reading it is one call through its table, with no existential and no closure,
/// and the parts need no type metadata: a method of a generic struct called from code not
/// specialized for a clock would look up the struct's metadata on every call.
class TraceClock {
    /// The current instant.
    func now() -> MonotonicInstant { fatalError("TraceClock.now() is provided by ClockOf") }
}

/// A ``TraceClock`` that reads a scheduler's `Clock`.
final class ClockOf<Clock: HapticClock>: TraceClock {
    let clock: Clock

    init(_ clock: Clock) { self.clock = clock }

    override func now() -> MonotonicInstant { clock.now() }
}
