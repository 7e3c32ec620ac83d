import CBenchSupport
import Glibc
import HapticsRendering
import HapticsScheduler
import Synchronization
import HapticsSystem

/// Records the lateness (`now − deadline`, as the scheduler reports it) of every level command, into
/// storage allocated up front: no allocation, lock or system call on the realtime thread.
final class LatenessRecorder: Actuator, @unchecked Sendable {
    let capacity: Int
    let deadlines: UnsafeMutablePointer<Int64>
    let lateness: UnsafeMutablePointer<Int64>
    let count = Atomic<Int>(0)
    let stops = Atomic<Int>(0)

    init(capacity: Int) {
        self.capacity = capacity
        deadlines = .allocate(capacity: capacity)
        deadlines.initialize(repeating: 0, count: capacity)
        lateness = .allocate(capacity: capacity)
        lateness.initialize(repeating: 0, count: capacity)
    }

    deinit {
        deadlines.deallocate()
        lateness.deallocate()
    }

    func perform(_ command: ActuatorCommand, channel: ChannelID, deadline: MonotonicInstant, now: MonotonicInstant) {
        if command.isSilent {
            stops.add(1, ordering: .releasing)
            return
        }
        let index = count.load(ordering: .relaxed)
        guard index < capacity else { return }
        deadlines[index] = deadline.nanoseconds
        lateness[index] = now.nanoseconds - deadline.nanoseconds
        count.store(index + 1, ordering: .releasing)
    }
}

/// One scheduler of the benchmark: its realtime thread plays `alternatingLevels` into a recorder.
struct LatenessRun {
    let scheduler: Scheduler
    let recorder: LatenessRecorder
    let player: PlayerID

    init(capacity: Int, program: Program, wakeAheadLimit: Duration) throws {
        scheduler = Scheduler(clock: SystemMonotonicClock(),
                              configuration: SchedulerConfiguration(wakeAheadLimit: wakeAheadLimit))
        recorder = LatenessRecorder(capacity: capacity)
        let channel = try scheduler.addChannel(output: recorder, profile: benchRumble, policy: .replace)
        player = try scheduler.makePlayer(program: scheduler.load(program), channel: channel)
        try scheduler.startRealtimeThread()
    }

    /// Plays block `block` (its `perBlock` events from `lead` ahead) and waits for its final stop.
    func play(block: Int, perBlock: Int, period: Int64, lead: Int64) {
        let start = scheduler.clock.now() + .nanoseconds(lead)
        guard scheduler.start(player, at: start) else {
            print("haptics-bench: the submission queue refused a start")
            exit(1)
        }
        // Sleep past the block's end, then make sure the final stop has arrived.
        _ = (start + .nanoseconds(Int64(perBlock) * period + 2_000_000)).nanoseconds.sleepUntilThisInstant()
        while recorder.stops.load(ordering: .acquiring) < block + 1 { usleep(1_000) }
    }

    var lateness: [Int64] { (0..<recorder.count.load(ordering: .acquiring)).map { recorder.lateness[$0] } }
    var deadlines: [Int64] { (0..<recorder.count.load(ordering: .acquiring)).map { recorder.deadlines[$0] } }
}

/// `Tools/bench scheduler`: 10⁴ events at a 1 ms period through the realtime thread, interleaved in
/// blocks with the same through a realtime thread that never wakes ahead
/// (`SchedulerConfiguration.wakeAheadLimit` 0) and with a plain C `clock_nanosleep(TIMER_ABSTIME)`
/// loop on its own thread as the baseline.
func runSchedulerBenchmark() {
    // Short alternating blocks sample the machine's changing load evenly for every loop.
    let blocks = 100
    let perBlock = 100
    let period: Int64 = 1_000_000
    let lead: Int64 = 5_000_000
    let total = blocks * perBlock

    let program = alternatingLevels(perBlock, period: period)
    let engine: LatenessRun
    let notAhead: LatenessRun
    do {
        engine = try LatenessRun(capacity: total, program: program, wakeAheadLimit: SchedulerConfiguration.default.wakeAheadLimit)
        notAhead = try LatenessRun(capacity: total, program: program, wakeAheadLimit: .zero)
    } catch {
        print("haptics-bench: \(error)")
        exit(1)
    }

    var baseline = [Int64](repeating: 0, count: total)
    var baselineDeadlines = [Int64](repeating: 0, count: total)
    let clock = SystemMonotonicClock()
    print("scheduler: \(blocks) blocks of \(perBlock) events at a \(period / 1_000) µs period, interleaved with the same never waking ahead and a C clock_nanosleep loop")
    for block in 0..<blocks {
        // Each of the two schedulers goes first in every other block.
        let order = block % 2 == 0 ? [engine, notAhead] : [notAhead, engine]
        for run in order { run.play(block: block, perBlock: perBlock, period: period, lead: lead) }

        let baselineStart = clock.now().nanoseconds + lead
        for index in 0..<perBlock { baselineDeadlines[block * perBlock + index] = baselineStart + Int64(index) * period }
        let result = baseline.withUnsafeMutableBufferPointer { buffer in
            CBenchSupport_runSleepLoop(baselineStart, period, Int32(perBlock),
                                       engine.scheduler.configuration.realtimePriority, buffer.baseAddress! + block * perBlock)
        }
        precondition(result == 0, "the baseline thread could not start: \(result)")
    }
    engine.scheduler.stopRealtimeThread()
    notAhead.scheduler.stopRealtimeThread()

    let lateness = engine.lateness
    let deadlines = engine.deadlines
    let recorded = lateness.count
    let sorted = lateness.sorted()
    let notAheadSorted = notAhead.lateness.sorted()
    let baselineSorted = baseline.sorted()
    let p50 = percentile(sorted, 0.50)
    let p99 = percentile(sorted, 0.99)
    let baselineP50 = percentile(baselineSorted, 0.50)
    let baselineP99 = percentile(baselineSorted, 0.99)
    let firstDeadline = deadlines.first ?? 0
    let drift = slope(x: deadlines.map { Double($0 - firstDeadline) / 1e9 }, y: lateness.map { Double($0) / 1_000 })
    let baselineDrift = slope(x: baselineDeadlines.map { Double($0 - firstDeadline) / 1e9 }, y: baseline.map { Double($0) / 1_000 })
    let statistics = engine.scheduler.statistics
    let early = lateness.count { $0 < 0 } + notAhead.lateness.count { $0 < 0 }

    func summary(_ sorted: [Int64]) -> String {
        "min \(microseconds(sorted.first ?? 0)) µs, p50 \(microseconds(percentile(sorted, 0.5))) µs, p99 \(microseconds(percentile(sorted, 0.99))) µs, max \(microseconds(sorted.last ?? 0)) µs"
    }
    print("events recorded: \(recorded) scheduler, \(notAheadSorted.count) never ahead, \(baseline.count) baseline")
    print("scheduler  lateness: " + summary(sorted))
    print("never ahead lateness: " + summary(notAheadSorted))
    print("baseline   lateness: " + summary(baselineSorted))
    print("events written before their deadline: \(early)")
    let worst = lateness.indices.sorted { lateness[$0] > lateness[$1] }.prefix(3)
    print("scheduler worst: " + worst.map { "\(microseconds(lateness[$0])) µs at event \($0)" }.joined(separator: ", "))
    let baselineWorst = baseline.indices.sorted { baseline[$0] > baseline[$1] }.prefix(3)
    print("baseline  worst: " + baselineWorst.map { "\(microseconds(baseline[$0])) µs at event \($0)" }.joined(separator: ", "))
    let blockMedians = stride(from: 0, to: recorded, by: perBlock).map { first in
        percentile(lateness[first..<min(first + perBlock, recorded)].sorted(), 0.5)
    }
    print("scheduler per-block median lateness (µs), min…max over blocks: \(microseconds(blockMedians.min() ?? 0))…\(microseconds(blockMedians.max() ?? 0))")
    print("drift (least-squares slope of lateness over time): scheduler \(decimal(drift)) µs/s, baseline \(decimal(baselineDrift)) µs/s")
    print("realtime thread: \(realtimePriority(statistics.realtimeThread)), timer slack \(statistics.realtimeThread?.timerSlack.map { "\($0.nanoseconds) ns" } ?? "unknown"), \(statistics.wakeUps) wake-ups, \(statistics.earlyWakeUps) of them before their deadline, waking \(microseconds(statistics.wakeAhead.nanoseconds)) µs ahead at the end")
    print(jsonObject([
        ("p50_lateness_us", microseconds(p50)),
        ("p99_lateness_us", microseconds(p99)),
        ("baseline_p50_lateness_us", microseconds(baselineP50)),
        ("baseline_p99_lateness_us", microseconds(baselineP99)),
        ("ratio_p99", decimal(Double(p99) / Double(max(baselineP99, 1)))),
        ("drift_us_per_s", decimal(drift)),
        ("never_ahead_p50_lateness_us", microseconds(percentile(notAheadSorted, 0.5))),
        ("never_ahead_p99_lateness_us", microseconds(percentile(notAheadSorted, 0.99))),
        ("min_lateness_us", microseconds(sorted.first ?? 0)),
        ("early_events", "\(early)"),
        ("early_wake_ups", "\(statistics.earlyWakeUps)"),
        ("wake_ahead_us", microseconds(statistics.wakeAhead.nanoseconds)),
    ]))
}

/// `count` level changes `period` apart, alternating between two rumble levels, then a stop.
func alternatingLevels(_ count: Int, period: Int64) -> Program {
    var commands = (0..<count).map { index in
        TimedCommand(offsetNanoseconds: Int64(index) * period, intensity: 1, sharpness: 0.5,
                     command: .rumble(strong: index % 2 == 0 ? 0x8000 : 0x4000, weak: 0x2000))
    }
    commands.append(TimedCommand(offsetNanoseconds: Int64(count) * period, intensity: 0, sharpness: 0, command: .stop))
    return Program(profileName: benchRumble.name, commands: commands,
                   durationNanoseconds: Int64(count) * period, leadTimeNanoseconds: 0)
}

extension Int64 {
    /// Sleeps until this `CLOCK_MONOTONIC` instant (nanoseconds).
    func sleepUntilThisInstant() -> Int32 {
        var deadline = timespec(tv_sec: Int(self / 1_000_000_000), tv_nsec: Int(self % 1_000_000_000))
        var result: Int32
        repeat { result = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, nil) } while result == EINTR
        return result
    }
}
