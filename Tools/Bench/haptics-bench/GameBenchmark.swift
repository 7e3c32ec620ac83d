import CBenchSupport
import Foundation
import Glibc
import Haptics
import HapticsDevices
import HapticsMeasurement
import HapticsScheduler
import HapticsSystem
import HapticsVirtualDevices

/// `Tools/bench game`: a heavy impact triggered the way a game triggers it — a fresh process, an
/// engine it creates itself (`HapticEngine.automatic()`), and ten times: `prepare()`, 100 ms, the
/// trigger, 300 ms — on a virtual DualSense bound by hid-playstation, from the call until the
/// output report reaches the device. Each peer makes the same calls in processes of its own, in
/// rounds that visit the peers in a different order each time; the figures are per call index,
/// so a cost that grows with the process's age or the calls before shows up where it starts.
enum GameBenchmark {
    /// The peers, in the order of the first round: a raw C `write()` of an uploaded effect (the
    /// floor), the engine, SDL2's rumble call and SDL2's haptic API.
    static let peers = ["raw_c", "haptics", "sdl2_rumble", "sdl2_haptic"]
    /// Calls each process makes.
    static let calls = 10
    /// The wait between `prepare()` and the trigger.
    static let prepareLead: UInt32 = 100_000
    /// How long every peer's rumble lasts (the engine's heavy impact plays this long).
    static let rumbleLength: UInt32 = 160_000
    /// The wait after each trigger before the next `prepare()`, the rumble included.
    static let afterTrigger: UInt32 = 300_000
    /// The groups of call indices the summary reports: the first call, the next four, the rest.
    static let groups: [(name: String, range: ClosedRange<Int>)] = [("0", 0...0), ("1-4", 1...4), ("5-9", 5...9)]
}

/// `haptics-bench game [rounds]`, in the guest: creates the pad, runs every peer's process in
/// every round, matches each call with the output report that moved a motor after it.
func runGameBenchmark(rounds: Int, peers named: [String] = GameBenchmark.peers) {
    // Diagnosis: `strace` as a peer name traces one engine process's first calls instead;
    // `split` splits every call at the kernel's instants (`GameSplit`); `sched` beside it prints
    // what the kernel's scheduler did during calls 0 and 1 (`printSchedulerEvents`); `rounds`
    // prints every process's call 0 and later calls in round order; `after-N` runs N rounds first,
    // unmeasured and untraced.
    let strace = named.contains("strace")
    let split = named.contains("split")
    let sched = split && named.contains("sched")
    let perRound = named.contains("rounds")
    let warmUp = named.first { $0.hasPrefix("after_") }.flatMap { Int($0.dropFirst(6)) } ?? 0
    let peers = named.filter { !["strace", "split", "sched", "rounds"].contains($0) && !$0.hasPrefix("after_") }
    print("game: a heavy impact on a virtual DualSense (uhid, hid-playstation) as a game calls it — a fresh process, \(GameBenchmark.calls) times prepare(), 100 ms, trigger, 300 ms — by raw C write(), the engine (HapticEngine.automatic(), ImpactFeedbackGenerator(style: .heavy)), SDL2's rumble and SDL2's haptic API (HIDAPI off); call → output report at the device, per call index, \(rounds) rounds of a process each")
    let pad: VirtualDualSense
    let node: String
    do {
        pad = try VirtualDualSense()
        guard let found = try pad.waitForGamepadNode() else { benchFailure("hid-playstation created no gamepad node") }
        node = found
    } catch {
        benchFailure("cannot set up the virtual DualSense: \(error)")
    }
    defer { pad.close() }
    // latency[peer][call index] over the rounds.
    var latency = [[[Int64]]](repeating: [[Int64]](repeating: [], count: GameBenchmark.calls), count: peers.count)
    var calls: [GameSplit.Call] = []
    var traceFailure: String?
    let folder = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
    for round in 0..<(warmUp + rounds) {
        if round == warmUp, split { traceFailure = startGameTrace(scheduler: sched) }
        for offset in 0..<peers.count {
            let peer = (round + offset) % peers.count
            let log = "\(folder)/haptics-bench-game.\(getpid()).\(peers[peer])"
            defer { unlink(log) }
            let seen = pad.outputReports.count
            // Diagnosis: the engine with every symbol bound at load instead of at its first call.
            if peers[peer] == "haptics_bind_now" { setenv("LD_BIND_NOW", "1", 1) }
            // `haptics_baseline`: the engine of another build (HAPTICS_BENCH_BASELINE), side by side.
            let (executable, client) = switch peers[peer] {
            case "haptics_bind_now": (executablePath(), "haptics")
            case "haptics_baseline": (executablePath() + "-baseline", "haptics")
            default: (executablePath(), peers[peer])
            }
            let status = runChildProcess([executable, "game-client", client, node, log])
            unsetenv("LD_BIND_NOW")
            guard status == 0, let text = try? String(contentsOfFile: log, encoding: .utf8) else {
                benchFailure("the \(peers[peer]) process of round \(round) failed (exit status \(status.map(String.init) ?? "none"))")
            }
            guard round >= warmUp else { continue }
            let lines = text.split(separator: "\n")
            let starts = lines.compactMap { Int64($0) }
            let thread = lines.first { $0.hasPrefix("thread ") }.flatMap { Int32($0.dropFirst(7)) } ?? 0
            guard starts.count == GameBenchmark.calls else {
                benchFailure("the \(peers[peer]) process of round \(round) reported \(starts.count) calls, not \(GameBenchmark.calls)")
            }
            let reports = Array(pad.outputReports.dropFirst(seen))
            for (index, start) in starts.enumerated() {
                guard let arrival = reports.first(where: { $0.setsMotors && $0.movesMotor && $0.receivedAt.nanoseconds >= start }) else {
                    benchFailure("no motor report after call \(index) of \(peers[peer]) in round \(round)")
                }
                latency[peer][index].append(arrival.receivedAt.nanoseconds - start)
                calls.append(GameSplit.Call(peer: peer, index: index, thread: thread, start: start,
                                            arrival: arrival.receivedAt.nanoseconds))
            }
        }
    }
    if sched, traceFailure == nil {
        printSchedulerEvents(calls, peers: peers)
        _ = KernelFunctionTrace.setEvents(schedulerEvents + padThreadEvents, enabled: false)
    }
    let splits = split && traceFailure == nil ? GameSplit(calls, peers: peers.count) : nil
    if strace { straceFirstCalls(node: node, folder: folder) }
    // `game 1 strace`: the trace alone, no peer to report.
    guard !peers.isEmpty else { return }
    // Diagnosis (`rounds`): every process's call 0 and its later calls' p50, µs, in round order.
    if perRound {
        for (peer, name) in peers.enumerated() {
            let later = (0..<latency[peer][0].count).map { round in
                percentile((1..<GameBenchmark.calls).map { latency[peer][$0][round] }.sorted(), 0.5) / 1_000
            }
            print("rounds: \(name) call 0: \(latency[peer][0].map { String($0 / 1_000) }.joined(separator: " "))")
            print("rounds: \(name) calls 1-9 p50: \(later.map(String.init).joined(separator: " "))")
        }
    }
    let raw = latency[0].flatMap { $0 }.sorted()
    let rawP50 = percentile(raw, 0.5)
    var entries: [(String, String)] = []
    print("call → output report at the device, µs (p50 over \(rounds) rounds per call index):")
    print("  " + "peer".padding(toLength: 12, withPad: " ", startingAt: 0)
          + (0..<GameBenchmark.calls).map { String($0).leftPadded(to: 7) }.joined()
          + "   all p50   all p99   ratio")
    for (index, peer) in peers.enumerated() {
        let perCall = latency[index].map { percentile($0.sorted(), 0.5) }
        let all = latency[index].flatMap { $0 }.sorted()
        let p50 = percentile(all, 0.5), p99 = percentile(all, 0.99)
        print("  " + peer.padding(toLength: 12, withPad: " ", startingAt: 0)
              + perCall.map { String(Int(($0 + 500) / 1_000)).leftPadded(to: 7) }.joined()
              + String(Int(p50 / 1_000)).leftPadded(to: 10) + String(Int(p99 / 1_000)).leftPadded(to: 10)
              + decimal(Double(p50) / Double(max(1, rawP50))).leftPadded(to: 8))
        var figures: [(String, String)] = [
            ("p50_us", microseconds(p50)), ("p99_us", microseconds(p99)),
            ("ratio_p50_to_raw_c", decimal(Double(p50) / Double(max(1, rawP50)))),
            ("per_call_p50_us", "[" + perCall.map(microseconds).joined(separator: ", ") + "]"),
        ]
        for group in GameBenchmark.groups {
            let values = group.range.flatMap { latency[index][$0] }.sorted()
            let groupP50 = percentile(values, 0.5)
            figures.append(("calls_\(group.name.replacingOccurrences(of: "-", with: "_"))", jsonObject([
                ("min_us", microseconds(values.first!)), ("p50_us", microseconds(groupP50)),
                ("p99_us", microseconds(percentile(values, 0.99))), ("max_us", microseconds(values.last!)),
                ("ratio_p50_to_raw_c", decimal(Double(groupP50) / Double(max(1, percentile(group.range.flatMap { latency[0][$0] }.sorted(), 0.5))))),
            ])))
        }
        if let splits { figures += splits.json(of: index) }
        entries.append((peer, jsonObject(figures)))
    }
    if let splits { splits.print(peers: peers) }
    printIndexRatios(latency, peers: peers)
    for group in GameBenchmark.groups {
        let line = peers.indices.map { index in
            let values = group.range.flatMap { latency[index][$0] }.sorted()
            return "\(peers[index]) \(microseconds(percentile(values, 0.5)))"
        }.joined(separator: ", ")
        print("  calls \(group.name): p50 \(line) µs")
    }
    print("note: QEMU TCG guest: absolute microseconds mean little; the ratios, measured side by side, are the figures.")
    print(jsonObject([("game", jsonObject(entries))]))
}

/// `haptics-bench game-client PEER NODE LOG`: one game process. Sets the peer up on the pad at
/// `NODE`, makes the calls, and writes each call's CLOCK_MONOTONIC reading (taken just before it)
/// to `LOG`, one per line.
func runGameClient(_ arguments: [String]) {
    guard arguments.count == 3 else { benchFailure("usage: haptics-bench game-client PEER NODE LOG") }
    let (peer, node, log) = (arguments[0], arguments[1], arguments[2])
    var prepare: () -> Void = {}
    let trigger: () -> Int64
    var stop: () -> Void = {}
    var finish: () -> Void = {}
    switch peer {
    case "raw_c", "raw_c_beside_engine":
        // Diagnosis (`raw_c_beside_engine`): raw C's write from a process where a started engine
        // runs too (its threads, its memory): what the engine's presence costs a trigger that does
        // not go through it.
        var engine: HapticEngine?
        if peer == "raw_c_beside_engine" {
            do { engine = try HapticEngine.automatic() } catch { benchFailure("engine: \(error)") }
        }
        let (raw, effectID): (FileDescriptor, Int16)
        do { (raw, effectID) = try openRawTrigger(eventNodePath: node) } catch { benchFailure("raw C: \(error)") }
        let effect = UInt16(bitPattern: effectID)
        trigger = {
            let start = CBenchSupport_rawTrigger(raw.rawValue, effect, 1)
            guard start >= 0 else { benchFailure("raw C: write: errno \(-start)") }
            return start
        }
        stop = { _ = CBenchSupport_rawTrigger(raw.rawValue, effect, 0) }
        finish = {
            try? raw.close()
            engine?.stop()
        }
    case "haptics", "haptics_no_wake_ahead", "haptics_slow_housekeeping", "haptics_prefaulted", "haptics_settled", "haptics_warmed", "haptics_warm_silent", "haptics_unrehearsed", "haptics_prewarmed", "haptics_plugged_later":
        if peer == "haptics_prefaulted" { prefaultCode() }
        var configuration = HapticEngine.Configuration()
        if peer == "haptics_no_wake_ahead" { configuration.scheduler.wakeAheadLimit = .zero }
        if peer == "haptics_slow_housekeeping" { configuration.housekeepingInterval = .seconds(10) }
        if peer == "haptics_unrehearsed" { configuration.rehearsesDevices = false }
        let engine: HapticEngine
        do {
            if peer == "haptics_plugged_later" {
                // Diagnosis: the game started its engine before the pad was plugged in (on the
                // simulated device `automatic()` falls back to), and the pad comes as a hotplug
                // adds it.
                engine = HapticEngine(outputs: [.simulated()], configuration: configuration)
                try engine.start()
                try engine.addOutput(HapticEngine.evdevOutput(path: node))
            } else {
                engine = try HapticEngine.automatic(configuration: configuration)
            }
        } catch {
            benchFailure("engine: \(error)")
        }
        let generator = ImpactFeedbackGenerator(style: .heavy, engine: engine)
        // Diagnosis: the first call after the process has had 2 s to settle; or after one
        // untimed trigger of another item.
        if peer == "haptics_settled" { usleep(2_000_000) }
        if peer == "haptics_warmed" {
            let other = ImpactFeedbackGenerator(style: .light, engine: engine)
            other.prepare()
            usleep(100_000)
            _ = other.impactOccurred()
            usleep(300_000)
        }
        if peer == "haptics_warm_silent" {
            generator.prepare()
            usleep(100_000)
            _ = generator.impactOccurred(intensity: 0)
            usleep(300_000)
        }
        prepare = { generator.prepare() }
        // Diagnosis: each prepare() followed at once by a silent trigger (intensity 0) of the item.
        if peer == "haptics_prewarmed" {
            prepare = {
                generator.prepare()
                _ = generator.impactOccurred(intensity: 0)
            }
        }
        trigger = {
            let start = SystemMonotonicClock().now().nanoseconds
            guard generator.impactOccurred().isScheduled else { benchFailure("engine: the impact was not scheduled") }
            return start
        }
        finish = { engine.stop() }
    case "actuator_alone":
        // Diagnosis: the engine's evdev actuator alone, no scheduler and no engine: its prepared
        // level (the heavy rumble, with its `replay.length`) performed from the calling thread.
        let actuator: EvdevActuator
        do {
            actuator = EvdevActuator(device: try EvdevDevice(path: node), configuration: .init(maximumPreparedLevels: 1))
            try actuator.prepare(Peers.pulse(lasting: .microseconds(Int64(GameBenchmark.rumbleLength))))
        } catch {
            benchFailure("actuator: \(error)")
        }
        let channel = ChannelID(rawValue: 0)
        trigger = {
            let start = SystemMonotonicClock().now()
            actuator.perform(alonePeerLevel, channel: channel, deadline: start, now: start)
            return start.nanoseconds
        }
        stop = {
            let now = SystemMonotonicClock().now()
            actuator.perform(.stop, channel: channel, deadline: now, now: now)
        }
        finish = { actuator.close() }
    case "scheduler_alone":
        // Diagnosis: the scheduler alone, no engine above it: a scheduler of its own (realtime
        // thread started, which writes the stop) on the same actuator, a player of the same
        // prepared rumble, started in an immediate group from the calling thread.
        let actuator: EvdevActuator
        let scheduler: Scheduler
        let player: PlayerID
        do {
            actuator = EvdevActuator(device: try EvdevDevice(path: node), configuration: .init(maximumPreparedLevels: 1))
            let pulse = Peers.pulse(lasting: .microseconds(Int64(GameBenchmark.rumbleLength)))
            try actuator.prepare(pulse)
            scheduler = Scheduler(clock: SystemMonotonicClock())
            let channel = try scheduler.addChannel(output: actuator, profile: benchRumble, policy: .replace)
            player = try scheduler.makePlayer(program: scheduler.load(pulse), channel: channel)
            try scheduler.startRealtimeThread()
        } catch {
            benchFailure("scheduler: \(error)")
        }
        trigger = {
            let start = scheduler.currentTime()
            var group = scheduler.beginImmediateGroup(now: start)
            guard scheduler.start(player, at: start, tag: 0, in: &group) else { benchFailure("scheduler: the start was refused") }
            scheduler.endImmediateGroup(group)
            return start.nanoseconds
        }
        finish = {
            scheduler.stopRealtimeThread()
            actuator.close()
        }
    case "haptics_player":
        // Diagnosis: the same heavy rumble as a pattern file a game plays, through a prepared
        // pattern player (played as rumble: the pad's voice coils are another path).
        let engine: HapticEngine
        let player: HapticPatternPlayer
        do {
            engine = try HapticEngine.automatic()
            player = try engine.makePlayer(pattern: Pattern(events: [
                PatternEvent(kind: .hapticContinuous, time: 0, duration: Double(GameBenchmark.rumbleLength) / 1_000_000,
                             parameters: EventParameters(hapticIntensity: 1, hapticSharpness: 0.5)),
            ]))
        } catch {
            benchFailure("engine: \(error)")
        }
        player.usesHDHaptics = false
        prepare = { player.prepare() }
        trigger = {
            let start = SystemMonotonicClock().now().nanoseconds
            guard player.start().isScheduled else { benchFailure("engine: the pattern was not scheduled") }
            return start
        }
        finish = { engine.stop() }
    case "sdl2_rumble", "sdl2_haptic":
        guard CBenchSupport_sdlOpen(VirtualDualSense.deviceName) == 0 else {
            benchFailure("SDL2: \(String(cString: CBenchSupport_sdlFailure()))")
        }
        if peer == "sdl2_rumble" {
            trigger = {
                let start = CBenchSupport_sdlRumble(0xC000, 0x4000, GameBenchmark.rumbleLength / 1_000)
                guard start >= 0 else { benchFailure("SDL2: \(String(cString: CBenchSupport_sdlFailure()))") }
                return start
            }
            stop = { _ = CBenchSupport_sdlRumble(0, 0, 0) }
        } else {
            trigger = {
                let start = CBenchSupport_sdlHapticRun()
                guard start >= 0 else { benchFailure("SDL2: \(String(cString: CBenchSupport_sdlFailure()))") }
                return start
            }
            stop = { _ = CBenchSupport_sdlHapticStop() }
        }
        finish = { CBenchSupport_sdlClose() }
    default:
        benchFailure("game-client: unknown peer \(peer) (one of \(GameBenchmark.peers.joined(separator: ", ")))")
    }
    var starts: [Int64] = []
    starts.reserveCapacity(GameBenchmark.calls)
    let marks = getenv("HAPTICS_GAME_MARKS") != nil
    for index in 0..<GameBenchmark.calls {
        prepare()
        usleep(GameBenchmark.prepareLead)
        if marks { CBenchSupport_markTrace("call-\(index)-begin") }
        starts.append(trigger())
        if marks {
            usleep(20_000)
            CBenchSupport_markTrace("call-\(index)-end")
        }
        // The engine's impact ends itself; the others end theirs as long after.
        usleep(GameBenchmark.rumbleLength)
        stop()
        usleep(GameBenchmark.afterTrigger - GameBenchmark.rumbleLength)
    }
    finish()
    // The thread that made the calls, for a split at the kernel's instants.
    let text = "thread \(ThreadIdentity.current)\n" + starts.map(String.init).joined(separator: "\n") + "\n"
    guard (try? text.write(toFile: log, atomically: true, encoding: .utf8)) != nil else { benchFailure("cannot write \(log)") }
}

extension String {
    /// The string right-aligned in `width` columns.
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}

/// Maps every executable page of the process's code in before the engine starts (a diagnosis
/// variant: what the first trigger pays in page faults for code never run before).
func prefaultCode() {
    guard let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8) else { return }
    for line in maps.split(separator: "\n") {
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count >= 2, fields[1].hasPrefix("r-x") else { continue }
        let bounds = fields[0].split(separator: "-").compactMap { UInt(String($0), radix: 16) }
        guard bounds.count == 2, let start = UnsafeMutableRawPointer(bitPattern: bounds[0]) else { continue }
        _ = madvise(start, Int(bounds[1] - bounds[0]), 22)  // MADV_POPULATE_READ
    }
}

/// The trace events `game … split sched` records beside the split's function entries.
private let schedulerEvents = [
    "sched/sched_wakeup", "sched/sched_switch", "sched/sched_pi_setprio", "timer/hrtimer_expire_entry",
    "irq/irq_handler_entry", "syscalls/sys_enter_timerfd_settime", "syscalls/sys_enter_futex",
    "sched/sched_stat_runtime",
]

/// What `game … split sched` records of the benchmark's virtual-pad thread (`haptics-uhid`, which
/// stamps each report as it reads it): its page faults and the system calls it makes between a
/// wake-up and its stamp.
private let padThreadEvents = [
    "exceptions/page_fault_user", "exceptions/page_fault_kernel", "syscalls/sys_enter_read", "syscalls/sys_exit_read",
    "syscalls/sys_exit_poll", "syscalls/sys_exit_ppoll", "syscalls/sys_enter_mmap", "syscalls/sys_enter_munmap",
    "syscalls/sys_enter_madvise", "syscalls/sys_enter_brk", "syscalls/sys_enter_mprotect",
]

/// Starts the trace of `game … split` (and with `scheduler`, of `sched`); `nil`, or why the split
/// is not measured. What `sched` could not switch on is printed, the split goes on without it.
private func startGameTrace(scheduler: Bool) -> String? {
    let functions = [kernelWriteFunction, driverWorkerFunction] + (scheduler ? addressSpaceSwitchFunctions : [])
    if let failure = KernelFunctionTrace.start(functions) {
        print("split: not measured (\(failure))")
        return failure
    }
    guard scheduler else { return nil }
    if let failure = KernelFunctionTrace.setEvents(schedulerEvents, enabled: true) { print("sched: not traced (\(failure))") }
    guard let pad = threadIDs(named: "haptics-uhid").first else {
        print("sched: the pad's thread not found")
        return nil
    }
    if let failure = KernelFunctionTrace.setEvents(padThreadEvents, enabled: true, filter: "common_pid == \(pad)") {
        print("sched: the pad's thread not traced (\(failure))")
    }
    return nil
}

/// The kernel functions `game … split sched` traces beside the split's: the switch of address
/// space (entered by the thread switched from, left in the one switched to).
private let addressSpaceSwitchFunctions = ["switch_mm_irqs_off", "finish_task_switch*"]

/// Diagnosis (`game … split sched`): for calls 0 and 1 of every process, the kernel's trace from
/// the call until 20 µs after its report reached the device — the function entries of the split
/// and every wake-up, switch, priority change, timer, interrupt, futex or timer system call and
/// fair-scheduler accounting (run time and virtual run time), the switches of address space
/// (`switch_mm_irqs_off` until `finish_task_switch` in the thread switched to) and what the
/// benchmark's pad thread did in the kernel (its page faults, `poll`, `read`, memory calls) — µs
/// after the call, each with its task and flags; for call 0 also the switches and accounting of
/// the 150 ms before it. It shows whether the driver's worker, woken inside the caller's
/// `write()`, preempted the caller there (the wake-up's flags hold `N`) or waited until the caller
/// slept, which threads ran while the caller slept (the fair scheduler preempts for a woken task
/// only when the current one is more than its wake-up granularity, 1 ms on one processor, ahead of
/// it in virtual run time), and where the report's way to the pad's stamp took its time.
func printSchedulerEvents(_ calls: [GameSplit.Call], peers: [String]) {
    let lines = KernelFunctionTrace.lines().compactMap(KernelFunctionTrace.parse)
    for call in calls where call.index <= 1 {
        print("sched: \(peers[call.peer]) call \(call.index), thread \(call.thread), report after \((call.arrival - call.start) / 1_000) µs")
        let from = call.index == 0 ? call.start - 150_000_000 : call.start
        for line in lines where line.instant >= from && line.instant <= call.arrival + 20_000 {
            if line.instant < call.start && !(line.text.contains("sched_stat_runtime") || line.text.contains("sched_switch")) { continue }
            print("  \(line.instant >= call.start ? "+" : "")\((line.instant - call.start) / 1_000) \(line.task) \(line.flags) \(line.text.prefix(160))")
        }
    }
}

/// Diagnosis: one engine process under `strace -f`, and every system call of its threads during
/// its first two calls (each marked, 20 ms long).
func straceFirstCalls(node: String, folder: String) {
    let log = "\(folder)/haptics-bench-game.strace", out = "\(folder)/haptics-bench-game.out"
    setenv("HAPTICS_GAME_MARKS", "1", 1)
    defer { unsetenv("HAPTICS_GAME_MARKS"); unlink(log); unlink(out) }
    let status = runChildProcess(["strace", "-f", "-tt", "-T", "-qq", "-o", log, "--", executablePath(), "game-client", "haptics", node, out])
    guard status == 0, let text = try? String(contentsOfFile: log, encoding: .utf8) else {
        print("strace: failed (\(status.map(String.init) ?? "none"))")
        return
    }
    var inside = false
    for line in text.split(separator: "\n") {
        if line.contains("call-0-begin") || line.contains("call-1-begin") { inside = true }
        if inside { print("strace: \(line)") }
        if line.contains("call-0-end") || line.contains("call-1-end") { inside = false }
    }
}

/// Diagnosis (`game … split`): every call split at the kernel's own instants (the function
/// tracer, `KernelFunctionTrace`) into call → the calling thread's `write()` enters evdev (the
/// peer's code before its write: for SDL2's rumble its upload too), → hid-playstation's output
/// worker begins, → the report reaches the device; p50 per group of call indices, side by side.
struct GameSplit {
    struct Call {
        let peer: Int, index: Int, thread: Int32, start: Int64, arrival: Int64
    }

    /// Per peer and group: the three stages of the calls matched (a call whose write was made by
    /// another thread, or none, is left out and counted).
    private var stages: [[(toKernel: [Int64], toWorker: [Int64], toWire: [Int64])]]
    private var unmatched: [Int]

    init(_ calls: [Call], peers: Int) {
        KernelFunctionTrace.stop()
        let entries = KernelFunctionTrace.entries(KernelFunctionTrace.lines())
        let toKernel = KernelFunctionTrace.delays(after: calls.map { ($0.thread, $0.start) }, until: kernelWriteFunction, in: entries)
        let entered = zip(calls, toKernel).map { call, delay in delay.map { call.start + $0 } ?? .max }
        let toWorker = KernelFunctionTrace.delays(after: entered, until: driverWorkerFunction, in: entries)
        stages = Array(repeating: Array(repeating: ([], [], []), count: GameBenchmark.groups.count), count: peers)
        unmatched = Array(repeating: 0, count: peers)
        for (position, call) in calls.enumerated() {
            guard let kernel = toKernel[position], let worker = toWorker[position],
                  let group = GameBenchmark.groups.firstIndex(where: { $0.range.contains(call.index) }) else {
                unmatched[call.peer] += 1
                continue
            }
            let began = entered[position] + worker
            guard began <= call.arrival else {
                unmatched[call.peer] += 1
                continue
            }
            stages[call.peer][group].toKernel.append(kernel)
            stages[call.peer][group].toWorker.append(worker)
            stages[call.peer][group].toWire.append(call.arrival - began)
        }
    }

    /// The table: per peer, per group, the three stages' p50 in µs.
    func print(peers: [String]) {
        Swift.print("split at the kernel's instants, p50 µs per group of calls (call → write() enters evdev → driver's worker begins → report at the device):")
        for (index, peer) in peers.enumerated() {
            let groups = GameBenchmark.groups.indices.map { group -> String in
                let stage = stages[index][group]
                guard !stage.toKernel.isEmpty else { return "calls \(GameBenchmark.groups[group].name): -" }
                return "calls \(GameBenchmark.groups[group].name): " + [stage.toKernel, stage.toWorker, stage.toWire]
                    .map { microseconds(percentile($0.sorted(), 0.5)) }.joined(separator: " / ")
            }
            Swift.print("  \(peer): " + groups.joined(separator: ", ") + (unmatched[index] > 0 ? " (\(unmatched[index]) calls unmatched)" : ""))
        }
    }

    /// The peer's stages as JSON pairs.
    func json(of peer: Int) -> [(String, String)] {
        GameBenchmark.groups.indices.compactMap { group in
            let stage = stages[peer][group]
            guard !stage.toKernel.isEmpty else { return nil }
            let name = GameBenchmark.groups[group].name.replacingOccurrences(of: "-", with: "_")
            return ("split_calls_\(name)", jsonObject([
                ("call_to_kernel_write_p50_us", microseconds(percentile(stage.toKernel.sorted(), 0.5))),
                ("kernel_write_to_worker_p50_us", microseconds(percentile(stage.toWorker.sorted(), 0.5))),
                ("worker_to_device_p50_us", microseconds(percentile(stage.toWire.sorted(), 0.5))),
            ]))
        }
    }
}

/// Each peer's ratio to raw C per call index (the p50s of that index) with a 90 % interval from the
/// rounds resampled: a round drawn keeps its raw C and its peer call together. Says whether one
/// index above a target is more than the rounds' own spread.
func printIndexRatios(_ latency: [[[Int64]]], peers: [String]) {
    guard peers.count > 1, let rounds = latency.first?.first?.count, rounds > 1 else { return }
    let draws = 1_000
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15  // a fixed seed: the same figures for the same samples
    func next() -> Int {
        // SplitMix64.
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((value ^ (value >> 31)) % UInt64(rounds))
    }
    print("ratio to raw C per call index, p50 of the index (90 % interval over the rounds resampled \(draws) times):")
    for peer in 1..<peers.count {
        let cells = (0..<GameBenchmark.calls).map { index -> String in
            let raw = latency[0][index], own = latency[peer][index]
            let ratio = Double(percentile(own.sorted(), 0.5)) / Double(max(1, percentile(raw.sorted(), 0.5)))
            var ratios: [Double] = []
            ratios.reserveCapacity(draws)
            for _ in 0..<draws {
                let picked = (0..<rounds).map { _ in next() }
                let ownP50 = percentile(picked.map { own[$0] }.sorted(), 0.5)
                let rawP50 = percentile(picked.map { raw[$0] }.sorted(), 0.5)
                ratios.append(Double(ownP50) / Double(max(1, rawP50)))
            }
            ratios.sort()
            return "\(index): \(decimal(ratio, 2)) (\(decimal(ratios[draws / 20], 2))–\(decimal(ratios[draws - 1 - draws / 20], 2)))"
        }
        print("  \(peers[peer]): " + cells.joined(separator: ", "))
    }
}
