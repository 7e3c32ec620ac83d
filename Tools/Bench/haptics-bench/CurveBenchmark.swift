import CBenchSupport
import Glibc
import HapticsPatterns
import HapticsRendering
import HapticsScheduler
import Synchronization
import HapticsSystem

/// `Tools/bench curve`: a 1,000-point intensity curve over 30 s sent to a playing player, as one
/// stored curve (`setCurve`), side by side with the way it was sent before: one `setParameter` per
/// control tick into the shared queue (the baseline). Reports what each submits, drops and plays,
/// the heap allocations while the curve plays, and the processing time per played tick. Both run
/// on a `SteppedClock` moved from deadline to deadline, so they see the same instants.
func runCurveBenchmark() {
    let profile = DeviceProfile(
        name: "bench-rumble-10ms", displayName: "Benchmark rumble", actuator: .dualRumble,
        riseTime: .zero, minimumPulse: .zero, controlInterval: .milliseconds(10))
    let curve = ParameterCurve(id: .hapticIntensityControl, time: 0, controlPoints: (0..<1_000).map { index in
        .init(time: Double(index) * 0.03, value: index % 2 == 0 ? 0.3 : 0.9)
    })
    let held = Program(
        profileName: profile.name,
        commands: [
            TimedCommand(offsetNanoseconds: 0, intensity: 0.8, sharpness: 0.5, command: .rumble(strong: 0xC000, weak: 0x4000)),
            TimedCommand(offsetNanoseconds: 60_000_000_000, intensity: 0, sharpness: 0, command: .stop),
        ],
        durationNanoseconds: 60 * 1_000_000_000, leadTimeNanoseconds: 0)
    let step: Int64 = 10_000_000
    let end = Duration(patternSeconds: curve.controlPoints.last!.time).nanoseconds

    struct Run {
        var accepted = 0
        var refused = 0
        var played = 0
        var allocations: Int64 = 0
        var processingNanoseconds: Int64 = 0
    }

    func play(stored: Bool) -> Run {
        let clock = SteppedClock()
        let scheduler = Scheduler(clock: clock, configuration: .default)
        let output = CountingOutput()
        guard let channel = try? scheduler.addChannel(output: output, profile: profile),
              let player = try? scheduler.makePlayer(program: scheduler.load(held), channel: channel) else { exit(1) }
        let t0 = clock.now()
        scheduler.start(player, at: t0)
        scheduler.process()
        var run = Run()
        if stored {
            if (try? scheduler.setCurve(player, curve, startingAt: t0)) == true { run.accepted += 1 } else { run.refused += 1 }
        } else {
            // What `HapticPatternPlayer.send(_:startingAt:)` submitted before curves were stored.
            var t: Int64 = 0
            while true {
                let value = curve.value(atOffset: Duration.nanoseconds(t).patternSeconds)
                if (try? scheduler.setParameter(player, .hapticIntensityControl, value: value, at: t0 + .nanoseconds(t))) == true {
                    run.accepted += 1
                } else {
                    run.refused += 1
                }
                if t >= end { break }
                t = min(t + step, end)
            }
        }
        let emittedBefore = output.count.load(ordering: .relaxed)
        var next = t0.nanoseconds
        CBenchSupport_beginCountingAllocations()
        let started = SystemMonotonicClock().now()
        while next <= t0.nanoseconds + end {
            clock.advance(by: .nanoseconds(next - clock.now().nanoseconds))
            guard let deadline = scheduler.process() else { break }
            next = deadline.nanoseconds
        }
        run.processingNanoseconds = (SystemMonotonicClock().now() - started).nanoseconds
        run.allocations = CBenchSupport_endCountingAllocations()
        run.played = output.count.load(ordering: .relaxed) - emittedBefore
        return run
    }

    let ticks = Int(end / step) + (end % step == 0 ? 1 : 2)
    let baseline = play(stored: false)
    let stored = play(stored: true)
    let perTick = { (run: Run) in Double(run.processingNanoseconds) / Double(max(run.played, 1)) }
    print("curve: 1000 points over \(decimal(Double(end) / 1e9, 2)) s at a 10 ms control interval: \(ticks) ticks; queue of \(SchedulerConfiguration.default.queueCapacity)")
    print("per-tick submissions (before): \(baseline.accepted) accepted, \(baseline.refused) refused (queue full), \(baseline.played) ticks played, \(baseline.allocations) allocations while playing, \(decimal(perTick(baseline) / 1000, 3)) µs processing per played tick")
    print("stored curve (now): \(stored.accepted) submission, \(stored.refused) refused, \(stored.played) ticks played, \(stored.allocations) allocations while playing, \(decimal(perTick(stored) / 1000, 3)) µs processing per played tick")
    print(jsonObject([
        ("ticks", "\(ticks)"),
        ("stored_submissions", "\(stored.accepted)"),
        ("stored_ticks_played", "\(stored.played)"),
        ("stored_mallocs", "\(stored.allocations)"),
        ("stored_ns_per_tick", decimal(perTick(stored), 1)),
        ("per_tick_submissions", "\(baseline.accepted)"),
        ("per_tick_refused", "\(baseline.refused)"),
        ("per_tick_ticks_played", "\(baseline.played)"),
        ("per_tick_ns_per_tick", decimal(perTick(baseline), 1)),
    ]))
}
