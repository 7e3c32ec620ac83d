import CBenchSupport
import Foundation
import Glibc
import Haptics
import HapticsMeasurement
import HapticsDevices
import HapticsSystem
import HapticsVirtualDevices

/// How many triggers each peer makes inside its traced window.
let tracedPeerTriggers = 100

/// One way a game starts a rumble on a pad, as `Tools/bench peers` measures it.
///
/// Each trigger returns the CLOCK_MONOTONIC reading taken just before the game's call; `stop` ends
/// what it started (the engine's impact ends itself: its stop is the realtime thread's).
struct PeerTrigger {
    /// For people.
    let name: String
    /// For JSON keys and trace markers.
    let key: String
    let trigger: () -> Int64
    let stop: () -> Void
}

/// The peers on one pad's event node: a raw C `write()` of an uploaded effect, the engine's
/// prepared impact (`impactOccurred()` on a started engine), an `EvdevActuator` and a scheduler played alone, SDL2's `SDL_GameControllerRumble`, and
/// SDL2's `SDL_HapticRunEffect` of an uploaded effect; and two calibration rows, the raw C write after
/// 16 cold code pages or 16 cold data pages. Each has its own descriptor and effects; the
/// engine keeps 4 levels prepared, so that every peer's effects fit the pad's 16.
final class Peers {
    let engine: HapticEngine
    let generator: ImpactFeedbackGenerator
    let raw: FileDescriptor
    let rawEffectID: Int16
    /// An actuator of its own on the same node, played from the calling thread without an engine:
    /// the evdev actuator's prepared level (with its `replay.length`) beside the raw write, to tell
    /// the actuator's and the kernel's part of the engine's time from the engine's.
    let alone: EvdevActuator
    /// The engine's scheduler without the engine: a scheduler of its own (realtime thread started)
    /// on another actuator of the node, a player of a 30 ms program of one prepared level, started
    /// in an immediate group from the calling thread — to tell the scheduler's part of the engine's
    /// time from the engine's layer above it.
    let scheduler: Scheduler
    let schedulerActuator: EvdevActuator
    let schedulerPlayer: PlayerID
    let sdlIsGameController: Bool

    /// A program of the diagnosis peers' one prepared level for `length`, then silence.
    static func pulse(lasting length: Duration) -> Program {
        Program(profileName: benchRumble.name, commands: [
            TimedCommand(offsetNanoseconds: 0, intensity: 1, sharpness: 0.5, command: alonePeerLevel),
            TimedCommand(offsetNanoseconds: length.nanoseconds, intensity: 0, sharpness: 0, command: .stop),
        ], durationNanoseconds: length.nanoseconds, leadTimeNanoseconds: 0)
    }

    init(eventNodePath: String) throws {
        (raw, rawEffectID) = try openRawTrigger(eventNodePath: eventNodePath)
        alone = EvdevActuator(device: try EvdevDevice(path: eventNodePath), configuration: .init(maximumPreparedLevels: 1))
        try alone.prepare(Self.pulse(lasting: .seconds(1)))
        schedulerActuator = EvdevActuator(device: try EvdevDevice(path: eventNodePath), configuration: .init(maximumPreparedLevels: 1))
        let impact = Self.pulse(lasting: .milliseconds(30))
        try schedulerActuator.prepare(impact)
        scheduler = Scheduler(clock: SystemMonotonicClock())
        let channel = try scheduler.addChannel(output: schedulerActuator, profile: benchRumble, policy: .replace)
        schedulerPlayer = try scheduler.makePlayer(program: scheduler.load(impact), channel: channel)
        try scheduler.startRealtimeThread()
        let device = try EvdevDevice(path: eventNodePath)
        let actuator = EvdevActuator(device: device, configuration: .init(maximumPreparedLevels: 4))
        engine = HapticEngine(outputs: [HapticEngine.Output(
            device: actuator, profile: DeviceCatalog.profile(for: device.info), name: device.info.name,
            path: eventNodePath, eventNode: device.info)])
        try engine.start()
        generator = ImpactFeedbackGenerator(style: .medium, engine: engine)
        generator.prepare()
        guard CBenchSupport_sdlOpen(VirtualDualSense.deviceName) == 0 else {
            benchFailure("SDL2: \(String(cString: CBenchSupport_sdlFailure()))")
        }
        sdlIsGameController = CBenchSupport_sdlIsGameController() != 0
    }

    /// The peers' keys, in the order of ``all`` (the system-call count reads its windows by them; with
    /// its marker, at most 32 characters, what `strace` shows of a string).
    static let keys = ["raw_c", "haptics", "actuator", "scheduler", "sdl2_rumble", "sdl2_haptic",
                       "cold_code", "cold_data"]

    var all: [PeerTrigger] {
        let raw = self.raw.rawValue
        let effect = UInt16(bitPattern: rawEffectID)
        let generator = self.generator
        return [
            PeerTrigger(name: "raw C write()", key: "raw_c", trigger: {
                let start = CBenchSupport_rawTrigger(raw, effect, 1)
                guard start >= 0 else { benchFailure("raw C: write: errno \(-start)") }
                return start
            }, stop: { _ = CBenchSupport_rawTrigger(raw, effect, 0) }),
            PeerTrigger(name: "engine impactOccurred()", key: "haptics", trigger: {
                let start = SystemMonotonicClock().now().nanoseconds
                guard generator.impactOccurred().isScheduled else { benchFailure("engine: the impact was not scheduled") }
                return start
            }, stop: {}),
            PeerTrigger(name: "EvdevActuator.perform() alone (no engine)", key: "actuator", trigger: { [alone] in
                let start = SystemMonotonicClock().now()
                alone.perform(alonePeerLevel, channel: ChannelID(rawValue: 0), deadline: start, now: start)
                return start.nanoseconds
            }, stop: { [alone] in
                let now = SystemMonotonicClock().now()
                alone.perform(.stop, channel: ChannelID(rawValue: 0), deadline: now, now: now)
            }),
            PeerTrigger(name: "Scheduler immediate group alone (no engine)", key: "scheduler", trigger: { [scheduler, schedulerPlayer] in
                let start = scheduler.clock.now()
                var group = scheduler.beginImmediateGroup(now: start)
                guard scheduler.start(schedulerPlayer, at: start, tag: 0, in: &group) else { benchFailure("scheduler: the start was refused") }
                scheduler.endImmediateGroup(group)
                return start.nanoseconds
            }, stop: {}),
            PeerTrigger(name: sdlIsGameController ? "SDL_GameControllerRumble" : "SDL_JoystickRumble", key: "sdl2_rumble", trigger: {
                let start = CBenchSupport_sdlRumble(0xC000, 0x4000, 1_000)
                guard start >= 0 else { benchFailure("SDL2: \(String(cString: CBenchSupport_sdlFailure()))") }
                return start
            }, stop: { _ = CBenchSupport_sdlRumble(0, 0, 0) }),
            PeerTrigger(name: "SDL_HapticRunEffect", key: "sdl2_haptic", trigger: {
                let start = CBenchSupport_sdlHapticRun()
                guard start >= 0 else { benchFailure("SDL2: \(String(cString: CBenchSupport_sdlFailure()))") }
                return start
            }, stop: { _ = CBenchSupport_sdlHapticStop() }),
            // Calibration of the emulated processor, beside the floor: its write after 16 calls to
            // functions each on its own code page, and after 16 data pages.
            afterColdPages(code: 16, data: 0, key: "cold_code"),
            afterColdPages(code: 0, data: 16, key: "cold_data"),
        ]
    }

    /// The raw C trigger after `code` cold code pages and `data` cold data pages (a calibration row).
    private func afterColdPages(code: Int32, data: Int32, key: String) -> PeerTrigger {
        let raw = self.raw.rawValue
        let effect = UInt16(bitPattern: rawEffectID)
        return PeerTrigger(name: "raw C write() after \(code) cold code pages, \(data) cold data pages", key: key, trigger: {
            let start = CBenchSupport_rawTriggerAfterColdPages(raw, effect, 1, code, data)
            guard start >= 0 else { benchFailure("raw C: write: errno \(-start)") }
            return start
        }, stop: { _ = CBenchSupport_rawTrigger(raw, effect, 0) })
    }

    func close() {
        CBenchSupport_sdlClose()
        engine.stop()
        alone.close()
        scheduler.stopRealtimeThread()
        schedulerActuator.close()
        try? raw.close()
    }
}

/// Waits for the pad's output reports: the driver's worker sends the motor levels it holds when it
/// runs, so a stop written before it ran would hide the play. Each trigger waits for the report
/// that moves a motor, then stops, then waits for the one that stops both.
struct WireWatch {
    let pad: VirtualDualSense
    /// Output reports received before the next trigger.
    var seen: Int

    /// How long every trigger waits after the previous one's stop reached the pad: the same idle
    /// before each peer's call. Without it a peer whose stop is immediate (raw C, SDL) triggers
    /// again at once, on an emulated processor still warm from the last trigger, while the engine,
    /// whose impact stops itself 30 ms later, always triggers from cold — which measured the idle,
    /// not the call.
    static let settleMicroseconds: UInt32 = 20_000
    /// How much longer than `settleMicroseconds` a trigger may wait: a pseudo-random part up to one
    /// engine housekeeping period (50 ms). With a fixed idle a peer whose trigger and stop take a
    /// fixed time calls at a fixed phase of every periodic wake-up in the guest — the engine's own
    /// housekeeping timer, the kernel's tick — and either always meets one inside its call or never
    /// does, so that one run measured the collision and the next did not.
    static let settleJitterMicroseconds: UInt64 = 50_000
    /// The state of the settle's pseudo-random sequence (the same sequence in every run).
    var jitterState: UInt64 = 0x9E37_79B9_7F4A_7C15

    mutating func settle() {
        // xorshift64: uniform enough over one period, and the same in every run.
        jitterState ^= jitterState << 13
        jitterState ^= jitterState >> 7
        jitterState ^= jitterState << 17
        usleep(Self.settleMicroseconds + UInt32(jitterState % Self.settleJitterMicroseconds))
    }

    /// The instant the first motor report after `seen` that matches `moving` arrived.
    mutating func next(moving: Bool, after peer: String) -> Int64 {
        func match(_ reports: [DualSenseOutputReport]) -> Int? {
            reports.indices.dropFirst(seen).first { reports[$0].setsMotors && reports[$0].movesMotor == moving }
        }
        let reports = pad.waitForOutputReports(timeout: .seconds(10)) { match($0) != nil }
        guard let found = match(reports) else {
            benchFailure("the pad received no motor report \(moving ? "moving a motor" : "stopping both") after \(peer)'s trigger: \(reports.dropFirst(seen).map { Array($0.bytes.prefix(5)) })")
        }
        seen = found + 1
        return reports[found].receivedAt.nanoseconds
    }

    /// Runs `peer`'s trigger and stop after the settle time, and returns the instants of its call,
    /// of its return, and of the report that moved a motor.
    mutating func instants(_ peer: PeerTrigger) -> (start: Int64, returned: Int64, arrival: Int64) {
        settle()
        let start = peer.trigger()
        let returned = SystemMonotonicClock().now().nanoseconds
        let arrival = next(moving: true, after: peer.name)
        peer.stop()
        _ = next(moving: false, after: peer.name)
        return (start, returned, arrival)
    }
}

extension DualSenseOutputReport {
    /// Whether it sets either motor above 0.
    var movesMotor: Bool { strongMotor > 0 || weakMotor > 0 }
}

/// `Tools/bench peers` (inside the kernel testbench guest): one trigger, as four peers issue it, on
/// a virtual DualSense over uhid bound by hid-playstation, from the game's call until the output
/// report reaches the device, in interleaved blocks, and the calling thread's system calls per
/// trigger (strace -f).
func runPeersBenchmark() {
    print("peers: one rumble trigger on a virtual DualSense (uhid, hid-playstation), issued by raw C write() of an uploaded effect, the engine's prepared impactOccurred(), SDL2's rumble and SDL2's haptic API (HIDAPI off: evdev); call → output report at the device")
    let traced = countPeerSystemCalls()
    let pad: VirtualDualSense
    let peers: Peers
    do {
        pad = try VirtualDualSense()
        guard let node = try pad.waitForGamepadNode() else { benchFailure("hid-playstation created no gamepad node") }
        peers = try Peers(eventNodePath: node)
    } catch {
        benchFailure("cannot set up the virtual DualSense and the peers: \(error)")
    }
    defer {
        peers.close()
        pad.close()
    }
    let triggers = peers.all
    precondition(triggers.map(\.key) == Peers.keys, "Peers.keys does not follow Peers.all")
    var watch = WireWatch(pad: pad, seen: pad.outputReports.count)
    let blocks = 6
    let perBlock = 20
    for peer in triggers {
        for _ in 0..<5 { _ = watch.instants(peer) }
    }
    var latency = [[Int64]](repeating: [], count: triggers.count)
    var calls = [[Int64]](repeating: [], count: triggers.count)
    // Where each call reached the kernel, and when the driver's worker began sending its report:
    // the kernel's own instants.
    let kernelTraceFailure = KernelFunctionTrace.start([kernelWriteFunction, driverWorkerFunction], writeReturns: true)
    var starts: [(peer: Int, start: Int64)] = []
    for block in 0..<blocks {
        // Each block visits the peers in another order, so that none always follows the same one.
        for offset in 0..<triggers.count {
            let index = (block + offset) % triggers.count
            for _ in 0..<perBlock {
                let measured = watch.instants(triggers[index])
                latency[index].append(measured.arrival - measured.start)
                calls[index].append(measured.returned - measured.start)
                starts.append((index, measured.start))
            }
        }
    }
    let kernel = kernelTraceFailure == nil ? KernelSplit(starts, peers: triggers.count, caller: ThreadIdentity.current) : nil
    if let kernelTraceFailure { print("call → write() in the kernel: not measured (\(kernelTraceFailure))") }
    let breakdown = tracedEngineBreakdown(peers, &watch)
    let rawP50 = percentile(latency[0].sorted(), 0.5)
    print("call → output report at the device, \(blocks) interleaved blocks of \(perBlock) per peer after 5 warm-up triggers each:")
    var entries: [(String, String)] = []
    for (index, peer) in triggers.enumerated() {
        let sorted = latency[index].sorted()
        let p50 = percentile(sorted, 0.5)
        let p99 = percentile(sorted, 0.99)
        let syscalls = traced.map { decimal(Double($0[index].total) / Double(max(1, $0[index].windows))) } ?? "null"
        let summary = traced.map { " (\($0[index].summary))" } ?? ""
        let callP50 = percentile(calls[index].sorted(), 0.5)
        let split = kernel?.summary(of: index)
        print("  \(peer.name): p50 \(microseconds(p50)) µs, p99 \(microseconds(p99)) µs, max \(microseconds(sorted.last!)) µs, "
            + "\(decimal(Double(p50) / Double(max(1, rawP50)))) × raw C at p50; the call itself p50 \(microseconds(callP50)) µs; "
            + "\(syscalls) system calls per trigger\(summary)\(split?.line ?? "")")
        var figures = [
            ("call_to_wire_p50_us", microseconds(p50)),
            ("call_to_wire_p99_us", microseconds(p99)),
            ("call_p50_us", microseconds(callP50)),
            ("syscalls_per_trigger", syscalls),
            ("ratio_p50_to_raw_c", decimal(Double(p50) / Double(max(1, rawP50)))),
        ] + (split?.json ?? [])
        if peer.key == "haptics" { figures += breakdown.json }
        entries.append((peer.key, jsonObject(figures)))
    }
    print(breakdown.line)
    print("note: QEMU TCG guest: absolute microseconds mean little; the ratios, measured side by side, are the figures. System calls are the calling thread's (the engine's impact stop is its realtime thread's).")
    print(jsonObject([("peers", jsonObject(entries))]))
}

/// The kernel function whose entry is a `write()` reaching an evdev node.
let kernelWriteFunction = "evdev_write"
/// The kernel function whose entry is hid-playstation's worker beginning to send the report.
let driverWorkerFunction = "dualsense_output_worker"
/// The name the `syscalls:sys_exit_write` event gives a `write()` returning.
let writeReturnEvent = "sys_write"

/// Each peer's calls split at the kernel's own instants (`KernelFunctionTrace`): call → the calling
/// thread's `write()` enters evdev (the peer's own code before its write, and SDL's upload), that
/// entry → hid-playstation's output worker begins, and how many of the calls' `write()`s returned
/// only after the worker had begun: the worker's wake-up preempts the caller inside its `write()`,
/// so what a peer does after its write is not on the way to the device.
struct KernelSplit {
    var toKernel: [[Int64]]
    var toWorker: [[Int64]]
    /// Per peer, the calls whose `write()` returned after the worker began.
    var workerInsideWrite: [Int]
    let calls: Int

    /// Splits the calls `starts` (each peer's, in the order made) that the thread `caller` made.
    init(_ starts: [(peer: Int, start: Int64)], peers: Int, caller: Int32) {
        KernelFunctionTrace.stop()
        let entries = KernelFunctionTrace.entries(KernelFunctionTrace.lines())
        let toKernel = KernelFunctionTrace.delays(after: starts.map { (caller, $0.start) }, until: kernelWriteFunction, in: entries)
        // A call whose write was not found is entered at `.max`, where nothing follows it.
        let entered = zip(starts, toKernel).map { call, delay in delay.map { call.start + $0 } ?? .max }
        let toWorker = KernelFunctionTrace.delays(after: entered, until: driverWorkerFunction, in: entries)
        let returned = KernelFunctionTrace.delays(after: entered.map { (caller, $0) }, until: writeReturnEvent, in: entries)
        self.toKernel = Array(repeating: [], count: peers)
        self.toWorker = Array(repeating: [], count: peers)
        workerInsideWrite = Array(repeating: 0, count: peers)
        for (index, call) in starts.enumerated() {
            if let delay = toKernel[index] { self.toKernel[call.peer].append(delay) }
            guard let delay = toWorker[index] else { continue }
            self.toWorker[call.peer].append(delay)
            if let back = returned[index], back > delay { workerInsideWrite[call.peer] += 1 }
        }
        calls = starts.count / max(1, peers)
    }

    /// The peer's split as a line's end and JSON pairs; `nil` when none of its calls matched.
    func summary(of peer: Int) -> (line: String, json: [(String, String)])? {
        guard !toKernel[peer].isEmpty, !toWorker[peer].isEmpty else { return nil }
        let kernel = percentile(toKernel[peer].sorted(), 0.5)
        let worker = percentile(toWorker[peer].sorted(), 0.5)
        return ("; call → write() in the kernel p50 \(microseconds(kernel)) µs, → driver's worker p50 \(microseconds(worker)) µs "
                    + "(\(toKernel[peer].count) of \(calls) calls matched; the worker ran inside the write() in \(workerInsideWrite[peer]))",
                [("call_to_kernel_write_p50_us", microseconds(kernel)), ("kernel_write_to_worker_p50_us", microseconds(worker)),
                 ("worker_inside_write", String(workerInsideWrite[peer]))])
    }
}

/// Where the engine's call spends its time, from its own trace (tracing on, `perPhase` triggers
/// after the measured blocks): call → the output's `write()` begins, the `write()`, its return →
/// the call returns, and call → output report at the device. Tracing reads the clock around each
/// stage, so these run a little slower than the untraced figures.
func tracedEngineBreakdown(_ peers: Peers, _ watch: inout WireWatch) -> (line: String, json: [(String, String)]) {
    let count = 40
    var calls: [(start: Int64, returned: Int64, arrival: Int64)] = []
    peers.engine.startTracing()
    let engine = peers.all[Peers.keys.firstIndex(of: "haptics")!]
    for _ in 0..<count { calls.append(watch.instants(engine)) }
    peers.engine.stopTracing()
    // The writes the calls caused: a level from a submission (the stops are the realtime thread's).
    let writes = peers.engine.collectTrace().records.filter { $0.event == .emitted && $0.sequence != 0 && !$0.command.isSilent }
    guard writes.count == count else {
        return ("engine, traced: \(writes.count) traced writes for \(count) calls; no breakdown", [])
    }
    func p50(_ values: [Int64]) -> Int64 { percentile(values.sorted(), 0.5) }
    let beforeWrite = p50(zip(calls, writes).map { $1.began.nanoseconds - $0.start })
    let write = p50(writes.map { $0.time.nanoseconds - $0.began.nanoseconds })
    let afterWrite = p50(zip(calls, writes).map { $0.returned - $1.time.nanoseconds })
    let wire = p50(calls.map { $0.arrival - $0.start })
    let line = "engine, traced (\(count) calls): call → write() began p50 \(microseconds(beforeWrite)) µs, write() p50 \(microseconds(write)) µs, "
        + "write() returned → call returned p50 \(microseconds(afterWrite)) µs; call → output report p50 \(microseconds(wire)) µs"
    return (line, [
        ("traced_call_to_write_began_p50_us", microseconds(beforeWrite)),
        ("traced_write_p50_us", microseconds(write)),
        ("traced_write_to_return_p50_us", microseconds(afterWrite)),
        ("traced_call_to_wire_p50_us", microseconds(wire)),
    ])
}

/// Runs ``runPeersWindow(triggers:)`` under `strace -f` in a child process and counts the calling
/// thread's system calls per peer; `nil` (with the reason printed) when that fails.
func countPeerSystemCalls() -> [TraceWindow]? {
    let log = "\(ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp")/haptics-bench-peers.\(getpid()).strace"
    defer { unlink(log) }
    let status = runChildProcess(["strace", "-f", "-qq", "-o", log, "--", executablePath(), "peers-window", String(tracedPeerTriggers)])
    guard status == 0, let text = try? String(contentsOfFile: log, encoding: .utf8) else {
        print("system calls: `strace -f` of the peers window did not succeed (exit status \(status.map(String.init) ?? "none"))")
        return nil
    }
    var windows: [TraceWindow] = []
    for key in Peers.keys {
        guard let window = TraceWindow(log: text, begin: traceMarker("begin", key), end: traceMarker("end", key)) else {
            print("system calls: the strace log has no complete window for \(key)")
            return nil
        }
        windows.append(window)
    }
    return windows
}

/// `haptics-bench peers-window N`, under strace: each peer's `triggers` triggers, each between two
/// markers, its stop and the wait for the device outside them.
func runPeersWindow(triggers: Int) {
    do {
        let pad = try VirtualDualSense()
        defer { pad.close() }
        guard let node = try pad.waitForGamepadNode() else { benchFailure("hid-playstation created no gamepad node") }
        let peers = try Peers(eventNodePath: node)
        defer { peers.close() }
        var watch = WireWatch(pad: pad, seen: pad.outputReports.count)
        for peer in peers.all {
            for _ in 0..<triggers {
                CBenchSupport_markTrace(traceMarker("begin", peer.key))
                _ = peer.trigger()
                CBenchSupport_markTrace(traceMarker("end", peer.key))
                _ = watch.next(moving: true, after: peer.name)
                peer.stop()
                _ = watch.next(moving: false, after: peer.name)
            }
        }
    } catch {
        benchFailure("peers window: \(error)")
    }
}

/// The level the actuator-alone peer plays: the raw C peer's magnitudes.
let alonePeerLevel = ActuatorCommand.rumble(strong: 0xC000, weak: 0x4000)
