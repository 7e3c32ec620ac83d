import CBenchSupport
import CEvdev
import Foundation
import Glibc
import HapticsDevices
import HapticsScheduler
import HapticsSystem
import HapticsVirtualDevices

/// How many triggers each side makes inside the traced window.
let tracedTriggers = 1_000

/// Markers that delimit a counted window in the system call trace. strace prints 32 characters
/// of a string argument, so a marker stays shorter than that.
func traceMarker(_ edge: String, _ side: String) -> String { "haptics-bench:\(edge):\(side)" }

/// The trace side of the engine's case `index` (`engine0`…).
func engineTraceSide(_ index: Int) -> String { "engine\(index)" }

/// `Tools/bench trigger` (inside the kernel testbench guest): a prepared force-feedback trigger on a
/// uinput sink, the engine's path (``EnginePreparedTrigger``) against a raw C `write()` loop on the
/// same device.
///
/// 1. System calls: this executable runs itself under `strace -f` (``runTriggerWindow(triggers:)``)
///    and counts what the triggering thread calls between two markers, for each side.
/// 2. Latency: from a CLOCK_MONOTONIC reading just before the trigger to the kernel's timestamp of the
///    `EV_FF` event as the uinput sink receives it, in alternating blocks of the two sides, with a
///    stop after every play and a wait for the sink to have read both, so its 16-event queue never
///    overflows.
func runTriggerBenchmark() {
    print("trigger: a prepared trigger (EV_FF play of an effect uploaded beforehand) on a uinput sink: the engine's path vs a raw C clock_gettime + write() loop on the same device")
    let traced = countTriggerSystemCalls()

    let blocks = 10
    let perBlock = 200
    let warmUp = 50
    let sink: UInputForceFeedbackSink
    let ours: EnginePreparedTrigger
    let oursEffectID: Int16
    let raw: FileDescriptor
    let rawEffectID: Int16
    do {
        sink = try UInputForceFeedbackSink(.init(name: "haptics-bench trigger sink"))
        ours = try EnginePreparedTrigger(eventNodePath: sink.eventNodePath)
        // Ours is whatever the engine uploaded while preparing. EVIOCSFF returns only after the sink
        // has answered (and recorded) the upload, so the records are complete here.
        let uploads = sink.records.compactMap { record -> Int16? in
            if case let .upload(effect, nil) = record.event { return effect.id } else { return nil }
        }
        guard let first = uploads.first else {
            benchFailure("preparing the engine's trigger uploaded no effect: \(sink.records.map(\.event))")
        }
        oursEffectID = first
        (raw, rawEffectID) = try openRawTrigger(eventNodePath: sink.eventNodePath)
    } catch {
        benchFailure("cannot set up the uinput sink: \(error) (needs write access to /dev/uinput; `Tools/bench trigger` runs this inside the kernel testbench)")
    }
    defer {
        ours.close()
        try? raw.close()
        sink.close()
    }
    var measurement = TriggerLatencyMeasurement(sink: sink, recordsSoFar: sink.records.count)
    let clock = SystemMonotonicClock()

    // Heap allocations of the triggering thread inside ours' trigger and stop (the sink's reader
    // thread is not counted): the realtime path must make none.
    var oursAllocations: Int64 = 0
    CBenchSupport_beginCountingThreadAllocations()
    let probe = [Int](repeating: 7, count: Int(clock.now().nanoseconds & 0xFF) + 64)
    let probeAllocations = CBenchSupport_endCountingThreadAllocations()
    guard probeAllocations >= 1 else { benchFailure("the thread allocation counter saw no allocation for a \(probe.count)-element array") }
    func oursOnce() -> Int64 {
        measurement.measure(effectID: oursEffectID) {
            let now = clock.now()
            let start = now.nanoseconds
            CBenchSupport_beginCountingThreadAllocations()
            do { try ours.trigger(now: now) } catch { benchFailure("ours: trigger: \(error)") }
            do { try ours.stop() } catch { benchFailure("ours: stop: \(error)") }
            oursAllocations += CBenchSupport_endCountingThreadAllocations()
            return start
        }
    }
    func rawOnce() -> Int64 {
        measurement.measure(effectID: rawEffectID) {
            let start = CBenchSupport_rawTrigger(raw.rawValue, UInt16(bitPattern: rawEffectID), 1)
            guard start >= 0 else { benchFailure("raw C: write: errno \(-start)") }
            guard CBenchSupport_rawTrigger(raw.rawValue, UInt16(bitPattern: rawEffectID), 0) >= 0 else {
                benchFailure("raw C: stop failed")
            }
            return start
        }
    }

    for _ in 0..<warmUp {
        _ = oursOnce()
        _ = rawOnce()
    }
    var oursLatency: [Int64] = []
    var rawLatency: [Int64] = []
    oursLatency.reserveCapacity(blocks * perBlock)
    rawLatency.reserveCapacity(blocks * perBlock)
    for block in 0..<(2 * blocks) {
        // Alternating blocks sample the emulator's changing speed evenly for both sides.
        for _ in 0..<perBlock {
            if block % 2 == 0 { oursLatency.append(oursOnce()) } else { rawLatency.append(rawOnce()) }
        }
    }
    oursLatency.sort()
    rawLatency.sort()

    let p50 = percentile(oursLatency, 0.5)
    let p99 = percentile(oursLatency, 0.99)
    let rawP50 = percentile(rawLatency, 0.5)
    let rawP99 = percentile(rawLatency, 0.99)
    let ratio = rawP50 > 0 ? Double(p50) / Double(rawP50) : Double.nan

    func line(_ name: String, _ sorted: [Int64]) -> String {
        "\(name): p50 \(microseconds(percentile(sorted, 0.5))) µs, p90 \(microseconds(percentile(sorted, 0.9))) µs, p99 \(microseconds(percentile(sorted, 0.99))) µs, max \(microseconds(sorted.last!)) µs (\(sorted.count) triggers)"
    }
    print("latency, clock read before the trigger → kernel timestamp of the EV_FF event at the device, \(blocks) alternating blocks of \(perBlock) per side after \(warmUp) warm-up triggers each:")
    print("  " + line("ours ", oursLatency))
    print("  " + line("raw C", rawLatency))
    print("  ratio_p50 (ours / raw C): \(decimal(ratio)) (target ≤ 1.2)")
    print("note: this runs on an emulated CPU (QEMU TCG): absolute microseconds mean nothing here; the ratio of the two sides, measured side by side in one run, is the figure. The kernel stamps input events in whole microseconds.")

    print("heap allocations of the triggering thread in ours' trigger and stop: \(oursAllocations) in \(warmUp + oursLatency.count) triggers (target 0)")

    var syscallsPerTrigger = "null"
    var ioctlsPerTrigger = "null"
    if let traced {
        syscallsPerTrigger = decimal(Double(traced.ours.total) / Double(tracedTriggers))
        ioctlsPerTrigger = decimal(Double(traced.ours.byName["ioctl", default: 0]) / Double(tracedTriggers))
        print("system calls of the triggering thread between two markers under strace -f, \(tracedTriggers) triggers per side (targets: 1 system call, 0 ioctls):")
        print("  ours : \(traced.ours.total) (\(traced.ours.summary)) = \(syscallsPerTrigger) per trigger, \(ioctlsPerTrigger) ioctls per trigger")
        print("  raw C: \(traced.raw.total) (\(traced.raw.summary)) = \(decimal(Double(traced.raw.total) / Double(tracedTriggers))) per trigger")
    } else {
        print("system calls: not measured (see above)")
    }

    // The whole engine: a prepared impact at intensity 1, at 0.7 and under a software gain of 0.5.
    let engineFigures = EngineFeedbackTrigger.Case.all.enumerated().map { index, played in
        measureEngineTriggers(played, traced: traced?.engine[index])
    }
    let cVersusSwift = measureCVersusSwiftLatency()
    let tracingFigures = measureTracingCost()

    print(jsonObject([
        ("p50_us", microseconds(p50)),
        ("p99_us", microseconds(p99)),
        ("raw_c_p50_us", microseconds(rawP50)),
        ("raw_c_p99_us", microseconds(rawP99)),
        ("ratio_p50", ratio.isFinite ? decimal(ratio) : "null"),
        ("syscalls_per_trigger", syscallsPerTrigger),
        ("ioctls_per_trigger", ioctlsPerTrigger),
        ("triggers", String(oursLatency.count)),
        ("mallocs_per_trigger", decimal(Double(oursAllocations) / Double(warmUp + oursLatency.count))),
    ] + engineFigures.flatMap { $0 } + cVersusSwift + tracingFigures))
}

/// What tracing costs a trigger through the whole engine (the game's call and the processing pass
/// that writes): an untraced and a traced engine, each on a sink of its own, in alternating blocks
/// so that both sample the emulator's changing speed alike. Prints a line and returns the JSON pairs.
///
/// On one emulated processor the sink's reader, woken by the `write()`, may switch the caller out
/// inside it and run first; whether it does changes a call's time several-fold and differs between
/// the two sides from run to run. So the calls are also compared among those that kept the
/// processor (no context switch of the calling thread between the two clock readings; counted
/// outside them), which is the engine's own cost.
func measureTracingCost(blocks: Int = 10, perBlock: Int = 100) -> [(String, String)] {
    let cases = EngineFeedbackTrigger.Case.all.filter { $0.key == "intensity_1" || $0.key == "traced_intensity_1" }
    var sinks: [UInputForceFeedbackSink] = []
    var engines: [EngineFeedbackTrigger] = []
    do {
        for played in cases {
            let sink = try UInputForceFeedbackSink(.init(name: "haptics-bench tracing sink"))
            sinks.append(sink)
            engines.append(try EngineFeedbackTrigger(eventNodePath: sink.eventNodePath, case: played))
        }
    } catch {
        benchFailure("tracing cost: cannot set up: \(error)")
    }
    defer {
        for engine in engines { engine.close() }
        for sink in sinks { sink.close() }
    }
    let clock = SystemMonotonicClock()
    var durations: [[Int64]] = [[], []]
    var kept: [[Int64]] = [[], []]
    for block in 0..<(2 * blocks) {
        let side = block % 2
        for _ in 0..<perBlock {
            let switches = CBenchSupport_threadContextSwitches()
            let began = clock.now().nanoseconds
            do { try engines[side].trigger() } catch { benchFailure("tracing cost: trigger: \(error)") }
            let duration = clock.now().nanoseconds - began
            durations[side].append(duration)
            if switches >= 0, CBenchSupport_threadContextSwitches() == switches { kept[side].append(duration) }
            do { try engines[side].finish() } catch { benchFailure("tracing cost: stop: \(error)") }
        }
        // The traced engine's ring holds 4096 records: emptied between blocks, outside the timing.
        if side == 1 { _ = engines[1].engine.collectTrace() }
    }
    let off = durations[0].sorted(), on = durations[1].sorted()
    let ratio = Double(percentile(on, 0.5)) / Double(max(percentile(off, 0.5), 1))
    let lost = engines[1].engine.collectTrace().lost
    // Per side: the calls that kept the processor, and their p50 (none when no call did).
    let keptP50 = kept.map { $0.isEmpty ? nil : percentile($0.sorted(), 0.5) }
    let keptRatio = keptP50[0].flatMap { off in keptP50[1].map { Double($0) / Double(max(off, 1)) } }
    func shown(_ side: Int) -> String { keptP50[side].map { ", p50 \(microseconds($0)) µs" } ?? "" }
    print("tracing: an impact at intensity 1 through the whole engine (game call + processing pass), \(blocks) alternating blocks of \(perBlock): "
        + "off p50 \(microseconds(percentile(off, 0.5))) µs, p99 \(microseconds(percentile(off, 0.99))) µs; "
        + "on p50 \(microseconds(percentile(on, 0.5))) µs, p99 \(microseconds(percentile(on, 0.99))) µs; "
        + "on/off p50 \(decimal(ratio)); \(lost) records lost")
    print("  calls that kept the processor (the sink's reader did not run inside them): off \(kept[0].count) of \(off.count)\(shown(0)); "
        + "on \(kept[1].count) of \(on.count)\(shown(1))" + (keptRatio.map { "; on/off p50 \(decimal($0))" } ?? ""))
    return [
        ("tracing_off_kept_processor_calls", String(kept[0].count)),
        ("tracing_on_kept_processor_calls", String(kept[1].count)),
        ("tracing_off_kept_processor_p50_us", keptP50[0].map(microseconds) ?? "null"),
        ("tracing_on_kept_processor_p50_us", keptP50[1].map(microseconds) ?? "null"),
        ("tracing_ratio_kept_processor_p50", keptRatio.map { decimal($0) } ?? "null"),
        ("tracing_off_call_and_pass_p50_us", microseconds(percentile(off, 0.5))),
        ("tracing_off_call_and_pass_p99_us", microseconds(percentile(off, 0.99))),
        ("tracing_on_call_and_pass_p50_us", microseconds(percentile(on, 0.5))),
        ("tracing_on_call_and_pass_p99_us", microseconds(percentile(on, 0.99))),
        ("tracing_ratio_p50", decimal(ratio)),
        ("tracing_lost_records", String(lost)),
    ]
}

/// The engine's figures for one case: its system calls per trigger from the strace windows, and,
/// measured here, heap allocations of the triggering thread per trigger and the actuator's own
/// account (prepared triggers, uploads on the realtime path) over `count` triggers. Prints a line
/// and returns the JSON pairs.
func measureEngineTriggers(_ played: EngineFeedbackTrigger.Case, traced: TraceWindow?, count: Int = 500) -> [(String, String)] {
    let engine: EngineFeedbackTrigger
    let sink: UInputForceFeedbackSink
    do {
        sink = try UInputForceFeedbackSink(.init(name: "haptics-bench engine trigger sink"))
        engine = try EngineFeedbackTrigger(eventNodePath: sink.eventNodePath, case: played)
    } catch {
        benchFailure("engine at \(played.name): cannot set up: \(error)")
    }
    defer {
        engine.close()
        sink.close()
    }
    let before = engine.actuator.statistics
    var allocations: Int64 = 0
    // How long the game's call and the processing pass take together, on the system clock.
    var durations: [Int64] = []
    durations.reserveCapacity(count)
    let clock = SystemMonotonicClock()
    for _ in 0..<count {
        CBenchSupport_beginCountingThreadAllocations()
        let began = clock.now().nanoseconds
        do { try engine.trigger() } catch { benchFailure("engine at \(played.name): trigger: \(error)") }
        durations.append(clock.now().nanoseconds - began)
        allocations += CBenchSupport_endCountingThreadAllocations()
        do { try engine.finish() } catch { benchFailure("engine at \(played.name): stop: \(error)") }
    }
    durations.sort()
    let after = engine.actuator.statistics
    let prepared = after.preparedTriggers - before.preparedTriggers
    let streamed = after.streamingUploads - before.streamingUploads
    let uploads = after.preparedUploads
    var syscalls = "null"
    var ioctls = "null"
    var summary = "system calls not measured"
    if let traced {
        syscalls = decimal(Double(traced.total) / Double(traced.windows))
        ioctls = decimal(Double(traced.byName["ioctl", default: 0]) / Double(traced.windows))
        summary = "\(traced.total) system calls in \(traced.windows) triggers (\(traced.summary)) = \(syscalls) per trigger, \(ioctls) ioctls"
    }
    var traceFigures: [(String, String)] = []
    var traceSummary = ""
    if played.traced {
        let trace = engine.engine.collectTrace()
        traceFigures = [("engine_\(played.key)_trace_records", String(trace.records.count)),
                        ("engine_\(played.key)_trace_lost", String(trace.lost))]
        traceSummary = "; traced: \(trace.records.count) records, \(trace.lost) lost, \(trace.commands.count) commands with every stage"
    }
    print("engine, prepared impact at \(played.name) (the game's call, which plays it on its thread): \(summary); "
        + "\(prepared) of \(count) triggers from a prepared effect, \(streamed) uploads on the realtime path, "
        + "\(uploads) uploads at prepare; heap allocations \(allocations); "
        + "call + pass p50 \(microseconds(percentile(durations, 0.5))) µs, p99 \(microseconds(percentile(durations, 0.99))) µs"
        + "\(traceSummary) (targets: 1 system call, 0 ioctls, 0 allocations)")
    return traceFigures + [
        ("engine_\(played.key)_call_and_pass_p50_us", microseconds(percentile(durations, 0.5))),
        ("engine_\(played.key)_call_and_pass_p99_us", microseconds(percentile(durations, 0.99))),
        ("engine_\(played.key)_syscalls_per_trigger", syscalls),
        ("engine_\(played.key)_ioctls_per_trigger", ioctls),
        ("engine_\(played.key)_prepared_triggers", String(prepared)),
        ("engine_\(played.key)_realtime_uploads", String(streamed)),
        ("engine_\(played.key)_mallocs_per_trigger", decimal(Double(allocations) / Double(count))),
    ]
}

/// Runs ``runTriggerWindow(triggers:)`` in a child process under `strace -f` and counts the
/// triggering thread's system calls in each side's window; `nil` (with the reason printed) when
/// strace is missing or the log lacks a window.
func countTriggerSystemCalls() -> (ours: TraceWindow, raw: TraceWindow, engine: [TraceWindow])? {
    let log = "\(ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp")/haptics-bench-trigger.\(getpid()).strace"
    defer { unlink(log) }
    let status = runChildProcess(["strace", "-f", "-qq", "-o", log, "--", executablePath(), "trigger-window", String(tracedTriggers)])
    guard status == 0 else {
        print("system calls: `strace -f` of the trigger window did not succeed (exit status \(status.map(String.init) ?? "none")); is strace installed?")
        return nil
    }
    guard let text = try? String(contentsOfFile: log, encoding: .utf8) else {
        print("system calls: strace wrote no log at \(log)")
        return nil
    }
    guard let ours = TraceWindow(log: text, begin: traceMarker("begin", "ours"), end: traceMarker("end", "ours")),
          let raw = TraceWindow(log: text, begin: traceMarker("begin", "raw"), end: traceMarker("end", "raw"))
    else {
        print("system calls: the strace log has no complete marked window")
        return nil
    }
    var engine: [TraceWindow] = []
    for (index, played) in EngineFeedbackTrigger.Case.all.enumerated() {
        let side = engineTraceSide(index)
        guard let window = TraceWindow(log: text, begin: traceMarker("begin", side), end: traceMarker("end", side)) else {
            print("system calls: the strace log has no complete window for the engine at \(played.name)")
            return nil
        }
        engine.append(window)
    }
    return (ours, raw, engine)
}

/// `haptics-bench trigger-window N`, run under strace by ``countTriggerSystemCalls()``: sets up a
/// sink and both sides, then makes `triggers` plays per side between markers and nothing else.
/// Plays are not stopped inside the window (a stop is a write too); the sink may miss some of them
/// in its 16-event queue, which changes nothing for the triggering thread. Then the engine's cases
/// (``EngineFeedbackTrigger/Case/all``), one window per trigger.
func runTriggerWindow(triggers: Int) {
    do {
        let sink = try UInputForceFeedbackSink(.init(name: "haptics-bench trigger-window sink"))
        defer { sink.close() }
        let ours = try EnginePreparedTrigger(eventNodePath: sink.eventNodePath)
        defer { ours.close() }
        let (raw, rawEffectID) = try openRawTrigger(eventNodePath: sink.eventNodePath)
        defer { try? raw.close() }

        CBenchSupport_markTrace(traceMarker("begin", "ours"))
        for _ in 0..<triggers { try ours.trigger(now: SystemMonotonicClock().now()) }
        CBenchSupport_markTrace(traceMarker("end", "ours"))
        try ours.stop()

        CBenchSupport_markTrace(traceMarker("begin", "raw"))
        for _ in 0..<triggers where CBenchSupport_rawTrigger(raw.rawValue, UInt16(bitPattern: rawEffectID), 1) < 0 {
            benchFailure("raw C: write failed")
        }
        CBenchSupport_markTrace(traceMarker("end", "raw"))
        _ = CBenchSupport_rawTrigger(raw.rawValue, UInt16(bitPattern: rawEffectID), 0)

        // The whole engine, each case on a sink of its own: a window around each trigger, the
        // impact's stop outside it.
        for (index, played) in EngineFeedbackTrigger.Case.all.enumerated() {
            let side = engineTraceSide(index)
            let sink = try UInputForceFeedbackSink(.init(name: "haptics-bench trigger-window engine sink"))
            defer { sink.close() }
            let engine = try EngineFeedbackTrigger(eventNodePath: sink.eventNodePath, case: played)
            defer { engine.close() }
            for _ in 0..<triggers {
                CBenchSupport_markTrace(traceMarker("begin", side))
                try engine.trigger()
                CBenchSupport_markTrace(traceMarker("end", side))
                try engine.finish()
            }
        }
    } catch {
        benchFailure("trigger window: \(error)")
    }
}

/// The raw C side's own descriptor and effect on the same device, uploaded the usual way.
func openRawTrigger(eventNodePath: String) throws(SystemCallError) -> (FileDescriptor, Int16) {
    let device = try FileDescriptor.open(eventNodePath, .readWrite)
    var effect = ff_effect()
    effect.type = UInt16(FF_RUMBLE)
    effect.id = -1
    effect.u.rumble.strong_magnitude = 0xC000
    effect.u.rumble.weak_magnitude = 0x4000
    do {
        try device.uploadEffect(&effect)
    } catch {
        try? device.close()
        throw error
    }
    return (device, effect.id)
}

/// Prints `message` and ends the benchmark with status 1.
func benchFailure(_ message: String) -> Never {
    print("haptics-bench: \(message)")
    exit(1)
}
