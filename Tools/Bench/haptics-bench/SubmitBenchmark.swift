import CBenchSupport
import Glibc
import HapticsPatterns
import HapticsRendering
import HapticsScheduler
import Synchronization
import HapticsSystem

/// Counts what the realtime thread emits, without allocating.
final class CountingOutput: Actuator, @unchecked Sendable {
    let count = Atomic<Int>(0)
    func perform(_ command: ActuatorCommand, channel: ChannelID, deadline: MonotonicInstant, now: MonotonicInstant) {
        count.add(1, ordering: .relaxed)
    }
}

/// A looping two-level program, so every intensity change re-maps a playing level.
func loopingProgram() -> Program {
    Program(
        profileName: benchRumble.name,
        commands: [
            TimedCommand(offsetNanoseconds: 0, intensity: 0.8, sharpness: 0.5, command: .rumble(strong: 0xC000, weak: 0x4000)),
            TimedCommand(offsetNanoseconds: 5_000_000, intensity: 0.6, sharpness: 0.5, command: .rumble(strong: 0x9000, weak: 0x3000)),
            TimedCommand(offsetNanoseconds: 10_000_000, intensity: 0, sharpness: 0, command: .stop),
        ],
        durationNanoseconds: 10_000_000, leadTimeNanoseconds: 0)
}

/// `Tools/bench submit`: submissions from 4 threads into a scheduler whose realtime thread plays and
/// re-maps; counts heap allocations in the window with the interposed allocator of CBenchSupport.
func runSubmitBenchmark(instructionsPerSubmit: Double?) {
    let threads = 4
    let perThread = 50_000
    // The counter must see allocations at all, or a 0 below would mean nothing.
    CBenchSupport_beginCountingAllocations()
    let probe = [Int](repeating: 7, count: Int(CBenchSupport_countedAllocations()) + 100)
    let probeAllocations = CBenchSupport_endCountingAllocations()
    print("allocation counter check: \(probeAllocations) allocation(s) for one \(probe.count)-element array")

    let scheduler = Scheduler(clock: SystemMonotonicClock(), configuration: SchedulerConfiguration(queueCapacity: 4096))
    let output = CountingOutput()
    let player: PlayerID
    do {
        let channel = try scheduler.addChannel(output: output, profile: benchRumble, policy: .replace)
        player = try scheduler.makePlayer(program: scheduler.load(loopingProgram()), channel: channel)
        try scheduler.startRealtimeThread()
    } catch {
        print("haptics-bench: \(error)")
        exit(1)
    }
    scheduler.setLoop(player, true, at: scheduler.clock.now())
    scheduler.start(player, at: scheduler.clock.now())

    let accepted = Atomic<Int>(0)
    var allocations: Int64 = 0
    var elapsed: Int64 = 0
    let emittedBefore = scheduler.statistics.emitted
    var start = MonotonicInstant(nanoseconds: 0)
    runTogether(threads: threads, begin: {
        start = scheduler.clock.now()
        CBenchSupport_beginCountingAllocations()
    }, end: {
        allocations = CBenchSupport_endCountingAllocations()
        elapsed = (scheduler.clock.now() - start).nanoseconds
    }) { thread in
        var mine = 0
        for index in 0..<perThread {
            let value = (index + thread) % 2 == 0 ? 0.5 : 1.0
            // The values are finite: the throwing check never fires, and costs one comparison.
            if (try? scheduler.setParameter(player, .hapticIntensityControl, value: value, at: scheduler.clock.now())) == true { mine += 1 }
        }
        accepted.add(mine, ordering: .relaxed)
    }
    // Let the realtime thread take what is still queued, then stop it.
    usleep(20_000)
    scheduler.stopRealtimeThread()
    let statistics = scheduler.statistics
    let attempts = threads * perThread
    let mallocsPerSubmit = Double(allocations) / Double(attempts)

    print("submissions: \(attempts) from \(threads) threads in \(microseconds(elapsed)) µs, \(accepted.load(ordering: .relaxed)) accepted, \(attempts - accepted.load(ordering: .relaxed)) refused (queue full)")
    print("realtime thread emitted \(statistics.emitted - emittedBefore) re-mapped levels meanwhile; \(realtimePriority(statistics.realtimeThread))")
    print("heap allocations in the window (submitters and realtime thread): \(allocations)")
    if let instructionsPerSubmit {
        print("instructions per submit (callgrind, (N submits − 0 submits) / N): \(decimal(instructionsPerSubmit, 1))")
    } else {
        print("instructions per submit: not measured (valgrind not found)")
    }
    print(jsonObject([
        ("mallocs_per_submit", decimal(mallocsPerSubmit, 6)),
        ("instructions_per_submit", instructionsPerSubmit.map { decimal($0, 1) } ?? "null"),
    ]))
}

/// `haptics-bench submit-count N`: N submissions on one thread and nothing else, for callgrind. The
/// queue is as large for N = 0 as for any N, so the difference of two runs is the submissions alone.
func runSubmitCount(_ submissions: Int) {
    let scheduler = Scheduler(clock: SystemMonotonicClock(), configuration: SchedulerConfiguration(queueCapacity: 1 << 17))
    precondition(submissions <= 1 << 17, "at most \(1 << 17) submissions fit the queue")
    let output = CountingOutput()
    guard let channel = try? scheduler.addChannel(output: output, profile: benchRumble),
          let player = try? scheduler.makePlayer(program: scheduler.load(loopingProgram()), channel: channel) else { exit(1) }
    let at = MonotonicInstant(nanoseconds: 0)
    var accepted = 0
    for index in 0..<submissions {
        if (try? scheduler.setParameter(player, .hapticIntensityControl, value: index % 2 == 0 ? 0.5 : 1.0, at: at)) == true { accepted += 1 }
    }
    print("submitted \(accepted)")
}
