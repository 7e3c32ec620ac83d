import CBenchSupport
import Foundation
import Glibc
import HapticsDevices
import HapticsRendering
import HapticsScheduler
import HapticsSystem
import HapticsVirtualDevices
import Synchronization

/// Forwards every command to a pad's `EvdevActuator` (the real `write()`) and records the
/// lateness the scheduler reports for it, after the write, into storage allocated up front.
final class TimedPad: Actuator, @unchecked Sendable {
    let pad: EvdevActuator
    let recorder: LatenessRecorder

    init(pad: EvdevActuator, capacity: Int) {
        self.pad = pad
        recorder = LatenessRecorder(capacity: capacity)
    }

    func perform(_ command: ActuatorCommand, channel: ChannelID, deadline: MonotonicInstant, now: MonotonicInstant) {
        pad.perform(command, channel: channel, deadline: deadline, now: now)
        // Lateness as the pad sees it: until its own write returned, after the pads before it.
        recorder.perform(command, channel: channel, deadline: deadline, now: SystemMonotonicClock().now())
    }

    func lifetimeOfPerformedLevel(on channel: ChannelID, now: MonotonicInstant) -> Duration? {
        pad.lifetimeOfPerformedLevel(on: channel, now: now)
    }
}

/// The CPU time (nanoseconds) the threads named `name` of this process have used, summed (`nil`
/// when none runs): the scheduler's own count of time on a processor (`/proc/self/task/*/schedstat`),
/// as precise as the C loop's `CLOCK_THREAD_CPUTIME_ID` — `stat`'s utime/stime are sampled at the
/// timer tick, which a thread waking every millisecond meets more often than its share.
func threadCPUTime(named name: String) -> Int64? {
    var total: Int64?
    for task in threadIDs(named: name) {
        guard let schedstat = try? String(contentsOfFile: "/proc/self/task/\(task)/schedstat", encoding: .utf8),
              let onProcessor = schedstat.split(separator: " ").first.flatMap({ Int64($0) })
        else { continue }
        total = (total ?? 0) + onProcessor
    }
    return total
}

/// The machine's busy and total CPU time so far (all processors, nanoseconds), from `/proc/stat`:
/// busy is everything but idle and iowait.
func machineCPUTime() -> (busy: Int64, total: Int64) {
    guard let stat = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
          let line = stat.split(separator: "\n").first
    else { return (0, 0) }
    let ticks = line.split(separator: " ").dropFirst().compactMap { Int64($0) }
    guard ticks.count >= 5 else { return (0, 0) }
    let total = ticks.prefix(8).reduce(0, +)
    let scale = 1_000_000_000 / Int64(sysconf(Int32(_SC_CLK_TCK)))
    return ((total - ticks[3] - ticks[4]) * scale, total * scale)
}

/// How many processors the machine has online.
func machineProcessors() -> Int { sysconf(Int32(_SC_NPROCESSORS_ONLN)) }

/// What a stretch of the run cost: the realtime (or C) thread's CPU, the sinks' reader threads' CPU,
/// and the whole guest's busy share, each over the stretch's wall time.
struct CPUShares {
    var wall: Int64 = 0
    var thread: Int64 = 0
    var readers: Int64 = 0
    var machineBusy: Int64 = 0
    var machineTotal: Int64 = 0

    /// Measures `body`, whose stretch starts at `start` (its first deadline, nanoseconds): `body`
    /// returns its own thread's CPU time, or `nil` to take the `haptics-rt` thread's.
    mutating func measure(from start: Int64, _ body: () -> Int64?) {
        let clock = SystemMonotonicClock()
        let realtime = threadCPUTime(named: "haptics-rt") ?? 0
        let readersBefore = threadCPUTime(named: "haptics-uinput") ?? 0
        let machine = machineCPUTime()
        let own = body()
        let machineAfter = machineCPUTime()
        readers += (threadCPUTime(named: "haptics-uinput") ?? 0) - readersBefore
        thread += own ?? ((threadCPUTime(named: "haptics-rt") ?? 0) - realtime)
        machineBusy += machineAfter.busy - machine.busy
        machineTotal += machineAfter.total - machine.total
        wall += clock.now().nanoseconds - start
    }

    func percent(_ part: Int64) -> Double { wall > 0 ? 100 * Double(part) / Double(wall) : .nan }
    var threadPercent: Double { percent(thread) }
    var readersPercent: Double { percent(readers) }
    /// The guest's busy share of all its processors.
    var machinePercent: Double { machineTotal > 0 ? 100 * Double(machineBusy) / Double(machineTotal) : .nan }
}

/// `Tools/bench scale` (inside the kernel testbench guest): one scheduler — the engine's realtime
/// core — drives `devices` (32) uinput force-feedback pads, each with a level update every
/// millisecond for 10 s (a program alternating between two prepared levels, so each update is a
/// stop and a play, two events of one `write()`), interleaved in 1 s blocks with the plain C `clock_nanosleep`
/// loop and with a C loop making the same writes on the same pads (the floor for the writes).
/// Lateness is measured after each pad's writes; an update is missed when it lands after the next
/// one was due.
func runScaleBenchmark(devices: Int) {
    guard (1...256).contains(devices) else { benchFailure("scale: 1 to 256 pads, not \(devices)") }
    let blocks = 10
    let perBlock = 1_000
    let period: Int64 = 1_000_000
    let lead: Int64 = 20_000_000
    print("scale: \(devices) uinput pads, a level update on each every \(period / 1_000) µs, \(blocks) blocks of \(perBlock) updates, interleaved with a C clock_nanosleep loop")

    let program = alternatingLevels(perBlock, period: period)

    let scheduler = Scheduler(clock: SystemMonotonicClock(), configuration: SchedulerConfiguration(queueCapacity: 4_096, maximumChannels: devices))
    let setUp: ScalePads
    do {
        let loaded = try scheduler.load(program)
        setUp = try ScalePads(devices: devices, program: program, loaded: loaded, scheduler: scheduler,
                              capacity: blocks * perBlock)
        try scheduler.startRealtimeThread()
    } catch {
        benchFailure("cannot set up \(devices) pads: \(error)")
    }
    print(setUp.summary)
    let pads = setUp.pads
    let players = setUp.players
    defer { setUp.close() }

    // The C write loop's floor: each pad's descriptor and the ids of its two prepared levels, in the
    // order the program plays them.
    let levels = program.commands.prefix(2).map(\.command)
    let descriptors = pads.map { $0.pad.device.descriptor.rawValue }
    let effects: [Int16] = pads.flatMap { pad in
        levels.map { level in
            guard let id = pad.pad.preparedLevels.first(where: { $0.command == level })?.effectID else {
                benchFailure("\(pad.pad.device.path): level \(level) is not prepared")
            }
            return id
        }
    }

    let clock = SystemMonotonicClock()
    var baseline = [Int64](repeating: 0, count: blocks * perBlock)
    var writes = [Int64](repeating: 0, count: blocks * perBlock * devices)
    var engine = CPUShares()
    var floor = CPUShares()
    var blocksRun = 0
    // A guest that cannot hold the rate would take many times the planned 10 s: the run stops after
    // the block that passes 60 s of the engine's wall time, and says how many it made.
    let wallLimit: Int64 = 60_000_000_000
    var cutShort = false
    for block in 0..<blocks where engine.wall < wallLimit && !cutShort {
        blocksRun = block + 1
        let start = clock.now() + .nanoseconds(lead)
        engine.measure(from: start.nanoseconds) {
            for player in players where !scheduler.start(player, at: start) { benchFailure("the submission queue refused a start") }
            let end = start.nanoseconds + Int64(perBlock) * period
            _ = (end + 5_000_000).sleepUntilThisInstant()
            // Bounded too: a block the realtime thread is far behind on is cut short (stopAll) after 120 s.
            let giveUp = clock.now().nanoseconds + 120_000_000_000
            while pads.contains(where: { $0.recorder.stops.load(ordering: .acquiring) < block + 1 }) {
                if clock.now().nanoseconds > giveUp {
                    _ = scheduler.stopAll(at: clock.now())
                    print("block \(block + 1) cut short after 120 s: the realtime thread was still playing it")
                    cutShort = true
                    break
                }
                usleep(1_000)
            }
            return nil
        }

        let baselineStart = clock.now().nanoseconds + lead
        let result = baseline.withUnsafeMutableBufferPointer { buffer in
            CBenchSupport_runSleepLoop(baselineStart, period, Int32(perBlock),
                                       scheduler.configuration.realtimePriority, buffer.baseAddress! + block * perBlock)
        }
        precondition(result == 0, "the baseline thread could not start: \(result)")

        // The same writes on the same pads from a plain C loop, while the realtime thread sleeps
        // (its players have ended).
        let writesStart = clock.now().nanoseconds + lead
        floor.measure(from: writesStart) {
            var cpu: Int64 = 0
            let failure = writes.withUnsafeMutableBufferPointer { buffer in
                CBenchSupport_runWriteLoop(writesStart, period, Int32(perBlock), scheduler.configuration.realtimePriority,
                                           descriptors, effects, Int32(devices),
                                           buffer.baseAddress! + block * perBlock * devices, &cpu)
            }
            if failure != 0 { benchFailure("the C write loop failed: \(Errno(rawValue: failure))") }
            return cpu
        }
        progress("scale: block \(block + 1) of \(blocks) done")
    }
    scheduler.stopRealtimeThread()

    var lateness: [Int64] = []
    for pad in pads {
        let count = pad.recorder.count.load(ordering: .acquiring)
        lateness.append(contentsOf: (0..<count).map { pad.recorder.lateness[$0] })
    }
    guard !lateness.isEmpty else { benchFailure("no update was written in \(blocksRun) blocks") }
    let updates = lateness.count
    let missed = lateness.filter { $0 >= period }.count
    let sorted = lateness.sorted()
    let baselineSorted = baseline.prefix(blocksRun * perBlock).sorted()
    let writesSorted = writes.prefix(blocksRun * perBlock * devices).sorted()
    let writesMissed = writesSorted.count - (writesSorted.firstIndex { $0 >= period } ?? writesSorted.count)
    let p50 = percentile(sorted, 0.5)
    let p99 = percentile(sorted, 0.99)
    let baselineP50 = percentile(baselineSorted, 0.5)
    let baselineP99 = percentile(baselineSorted, 0.99)
    let writesP50 = percentile(writesSorted, 0.5)
    let writesP99 = percentile(writesSorted, 0.99)
    // Where in the pass the time goes: the first pad's lateness is the wake-up, the last pad's adds
    // every write of the pass before it.
    func padLateness(_ pad: Int) -> (engine: [Int64], writes: [Int64]) {
        let recorder = pads[pad].recorder
        let engine = (0..<recorder.count.load(ordering: .acquiring)).map { recorder.lateness[$0] }.sorted()
        let writes = (0..<blocksRun * perBlock).map { writes[$0 * devices + pad] }.sorted()
        return (engine, writes)
    }
    let first = padLateness(0)
    let last = padLateness(devices - 1)
    let ratio = Double(p99) / Double(max(1, baselineP99))
    let ratioToWrites = Double(p99) / Double(max(1, writesP99))
    let cpuPercent = engine.threadPercent
    let writesCPUPercent = floor.threadPercent
    let statistics = scheduler.statistics
    if blocksRun < blocks {
        print("stopped after \(blocksRun) of \(blocks) blocks: the engine's blocks took \(decimal(Double(engine.wall) / 1e9, 1)) s of wall time for \(blocksRun) s of updates")
    }
    print("updates: \(updates) of \(devices * blocksRun * perBlock) written, \(missed) missed (written 1 ms or more after their deadline)")
    print("lateness after each pad's write: p50 \(microseconds(p50)) µs, p99 \(microseconds(p99)) µs, max \(microseconds(sorted.last ?? 0)) µs")
    print("C timer loop wake-up lateness: p50 \(microseconds(baselineP50)) µs, p99 \(microseconds(baselineP99)) µs, max \(microseconds(baselineSorted.last ?? 0)) µs")
    print("C write loop (the same writes on the same pads): \(writesMissed) of \(writesSorted.count) missed; lateness after each pad's writes p50 \(microseconds(writesP50)) µs, p99 \(microseconds(writesP99)) µs, max \(microseconds(writesSorted.last ?? 0)) µs; CPU \(decimal(writesCPUPercent, 1)) % of its blocks' wall time")
    print("by position in the pass, p50 / p99 lateness: engine first pad \(microseconds(percentile(first.engine, 0.5))) / \(microseconds(percentile(first.engine, 0.99))) µs, last pad \(microseconds(percentile(last.engine, 0.5))) / \(microseconds(percentile(last.engine, 0.99))) µs; C write loop first pad \(microseconds(percentile(first.writes, 0.5))) / \(microseconds(percentile(first.writes, 0.99))) µs, last pad \(microseconds(percentile(last.writes, 0.5))) / \(microseconds(percentile(last.writes, 0.99))) µs")
    print("ratio_p99 (scheduler / C timer loop): \(decimal(ratio)) (target ≤ 1.2); ratio_p99_vs_c_writes (scheduler / C write loop): \(decimal(ratioToWrites))")
    print("CPU during the engine's blocks: realtime thread \(decimal(cpuPercent, 1)) %, the sinks' reader \(decimal(engine.readersPercent, 1)) %, the guest busy \(decimal(engine.machinePercent, 1)) % (of \(machineProcessors()) processor(s)); during the C write loop's: its thread \(decimal(writesCPUPercent, 1)) %, the sinks' reader \(decimal(floor.readersPercent, 1)) %, the guest busy \(decimal(floor.machinePercent, 1)) %")
    print("realtime thread: \(realtimePriority(statistics.realtimeThread)); \(statistics.wakeUps) wake-ups")
    print("note: QEMU TCG guest: each write costs tens of microseconds of emulated CPU, and one thread makes every pad's write each millisecond.")
    print(jsonObject([
        ("devices", String(devices)),
        ("rate_hz", String(1_000_000_000 / period)),
        ("updates", String(updates)),
        ("planned_updates", String(devices * blocks * perBlock)),
        ("engine_wall_s", decimal(Double(engine.wall) / 1e9, 2)),
        ("missed", String(missed)),
        ("p99_lateness_us", microseconds(p99)),
        ("baseline_p99_lateness_us", microseconds(baselineP99)),
        ("ratio_p99", decimal(ratio)),
        ("rt_cpu_percent", decimal(cpuPercent, 1)),
        ("c_writes_missed", String(writesMissed)),
        ("c_writes_p99_lateness_us", microseconds(writesP99)),
        ("c_writes_cpu_percent", decimal(writesCPUPercent, 1)),
        ("readers_cpu_percent", decimal(engine.readersPercent, 1)),
        ("guest_busy_percent", decimal(engine.machinePercent, 1)),
        ("c_writes_guest_busy_percent", decimal(floor.machinePercent, 1)),
        ("processors", String(machineProcessors())),
        ("ratio_p99_vs_c_writes", decimal(ratioToWrites)),
        ("first_pad_p50_lateness_us", microseconds(percentile(first.engine, 0.5))),
        ("last_pad_p50_lateness_us", microseconds(percentile(last.engine, 0.5))),
        ("c_writes_first_pad_p50_lateness_us", microseconds(percentile(first.writes, 0.5))),
        ("c_writes_last_pad_p50_lateness_us", microseconds(percentile(last.writes, 0.5))),
        ("setup_s", decimal(Double(setUp.totalNanoseconds) / 1e9, 2)),
    ]))
}

/// A progress line on stderr (the guest's console), so a slow run shows where it is.
func progress(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
