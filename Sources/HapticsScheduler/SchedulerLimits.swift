import HapticsSystem

/// The ranges the scheduler accepts from its callers, chosen so that the realtime thread's `Int64`
/// nanosecond arithmetic can never overflow and never divides by zero, whatever a caller passes.
///
/// Where a value outside its range has an obvious meaning, it is clamped (an instant 500 years
/// ahead means "never", a seek before the start means the start); where it has none (a NaN rate, a
/// program ending after a day), the call throws a ``SchedulerError`` and changes nothing.
/// docs/internals/scheduler.md has the whole table.
public enum SchedulerLimits {
    /// The playback rates `setRate` accepts: 1/64…64. Outside (and NaN, ±infinity, 0, negatives) it
    /// throws ``SchedulerError/invalidRate(_:)``. The bound keeps every rescaled offset within 64
    /// times the longest program.
    public static let playbackRates: ClosedRange<Double> = 1.0 / 64 ... 64

    /// The instants a submission is taken at: ±2⁶² ns (±146 years on `CLOCK_MONOTONIC`, which counts
    /// from boot). A submission's instant beyond it is clamped to it — "never" or "long ago" either way.
    public static let instants: ClosedRange<MonotonicInstant> =
        MonotonicInstant(nanoseconds: -(1 << 62)) ... MonotonicInstant(nanoseconds: 1 << 62)

    /// How late a submission may be processed and still take effect at its own instant: one hour.
    /// One processed later (submitted with an instant far in the past) takes effect this long before
    /// the processing pass that applies it, which plays the same way — everything due is already late.
    public static let maximumCatchUp: Duration = .seconds(3_600)

    /// The longest program `load` accepts (its command offsets and its duration): two hours.
    /// Rendered patterns are held to one hour (`Renderer.maximumPatternDuration`); the margin is for
    /// the pulses rendering stretches.
    public static let maximumProgramLength: Duration = .seconds(7_200)

    /// `instants` in nanoseconds, for the submission path.
    static let earliestNanoseconds: Int64 = -(1 << 62)
    static let latestNanoseconds: Int64 = 1 << 62
    /// `maximumCatchUp` in nanoseconds, for the processing side.
    static let maximumCatchUpNanoseconds: Int64 = 3_600 * 1_000_000_000
    /// `maximumProgramLength` in nanoseconds.
    static let maximumProgramNanoseconds: Int64 = 7_200 * 1_000_000_000

    /// `instant` clamped to `instants`.
    @inline(__always)
    static func clamped(_ instant: MonotonicInstant) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: Swift.min(Swift.max(instant.nanoseconds, earliestNanoseconds), latestNanoseconds))
    }
}
