import HapticsRendering
@testable import HapticsScheduler
import HapticsSystem
import HapticsTestSupport

/// A scheduler on a manual clock with one recording channel.
struct SchedulerRig {
    let clock: ManualClock
    let scheduler: Scheduler
    let output: RecordingActuator
    let channel: ChannelID

    init(start: Int64 = 1_000 * 1_000_000, policy: OverlapPolicy = .replace, profile: DeviceProfile = testRumble,
         configuration: SchedulerConfiguration = .default, levelLifetime: Duration? = nil) {
        clock = ManualClock(start: MonotonicInstant(nanoseconds: start))
        scheduler = Scheduler(clock: clock, configuration: configuration)
        output = RecordingActuator(levelLifetime: levelLifetime)
        // The first channel of a scheduler always fits: every configuration has at least one.
        channel = try! scheduler.addChannel(output: output, profile: profile, policy: policy)
    }

    var nowNanoseconds: Int64 { clock.now().nanoseconds }

    func at(_ nanoseconds: Int64) -> MonotonicInstant { MonotonicInstant(nanoseconds: nanoseconds) }

    func player(_ program: Program) throws -> PlayerID {
        try scheduler.makePlayer(program: scheduler.load(program), channel: channel)
    }

    /// Advances the clock to `instant` and processes; returns the next deadline.
    @discardableResult
    func run(to instant: Int64) -> Int64? {
        clock.advance(to: MonotonicInstant(nanoseconds: instant))
        return scheduler.process()?.nanoseconds
    }

    /// Processes at every deadline the scheduler reports, up to `limit`: the way the realtime thread
    /// wakes, so `nowNanoseconds` equals each deadline.
    func runOnDeadlines(until limit: Int64) {
        var next = scheduler.process()?.nanoseconds
        while let deadline = next, deadline <= limit {
            clock.advance(to: MonotonicInstant(nanoseconds: max(deadline, nowNanoseconds)))
            next = scheduler.process()?.nanoseconds
        }
    }
}
