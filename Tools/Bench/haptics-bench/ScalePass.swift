import Glibc
import HapticsRendering
import HapticsScheduler
import HapticsSystem
import Synchronization

/// `haptics-bench scale-pass` (on the host, no device): the CPU time of the scheduler's processing
/// pass per tick when N channels each take a level update every millisecond, for N = 1…64, with
/// outputs that only count — how the pass's own cost grows with the channels. The scale benchmark
/// measures the same program with the real writes in the guest.
func runScalePass() {
    let ticks = 2_000
    let period: Int64 = 1_000_000
    print("scale-pass: the processing pass of \(ticks) ticks, one update on each channel per tick, outputs that only count")
    var pairs: [(String, String)] = []
    for devices in [1, 8, 16, 32, 64] {
        let clock = SteppedClock()
        let scheduler = Scheduler(clock: clock, configuration: SchedulerConfiguration(
            queueCapacity: 4_096, maximumPlayers: 256, maximumChannels: devices))
        let program = alternatingLevels(ticks, period: period)
        let output = CountingOutput()
        do {
            let loaded = try scheduler.load(program)
            var players: [PlayerID] = []
            for _ in 0..<devices {
                let channel = try scheduler.addChannel(output: output, profile: benchRumble, policy: .replace)
                players.append(try scheduler.makePlayer(program: loaded, channel: channel))
            }
            var best = Int64.max
            for _ in 0..<3 {
                // Each round plays the program from its start, after the previous round's end.
                clock.advance(by: .nanoseconds(10 * period))
                let start = clock.now() + .nanoseconds(period)
                for player in players where !scheduler.start(player, at: start) {
                    benchFailure("the submission queue refused a start")
                }
                _ = scheduler.process()
                var cpu = timespec()
                clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu)
                let before = Int64(cpu.tv_sec) * 1_000_000_000 + Int64(cpu.tv_nsec)
                for _ in 0..<ticks {
                    clock.advance(by: .nanoseconds(period))
                    _ = scheduler.process()
                }
                clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu)
                best = min(best, Int64(cpu.tv_sec) * 1_000_000_000 + Int64(cpu.tv_nsec) - before)
            }
            let perTick = Double(best) / Double(ticks)
            let performed = output.count.load(ordering: .relaxed)
            print("\(devices) channels: \(decimal(perTick / 1_000, 2)) µs a tick, \(decimal(perTick / Double(devices), 0)) ns a channel update (best of 3; \(performed) commands performed in all)")
            pairs.append(("ns_per_update_\(devices)", decimal(perTick / Double(devices), 0)))
        } catch {
            benchFailure("cannot set up \(devices) channels: \(error)")
        }
    }
    print(jsonObject(pairs))
}
