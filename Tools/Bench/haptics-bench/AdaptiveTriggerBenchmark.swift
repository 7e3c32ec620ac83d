import Glibc
import Haptics
import HapticsSystem
import HapticsTriggers
import HapticsVirtualDevices

/// `adaptive-triggers`: a trigger effect set by a game's call → the trigger report at a virtual
/// DualSense (USB, bound by hid-playstation), in the kernel testbench guest.
///
/// Two sides, interleaved in blocks: the engine's `setTriggerEffects(left:right:on:)` (the pad's
/// writer thread writes the report), and raw C — a `write()` of the same report to the pad's
/// hidraw node on the calling thread, the least any program could do. Each call alternates two
/// effects, so every call changes the trigger, and waits for its report before the next.
func runAdaptiveTriggerBenchmark() {
    let pad: VirtualDualSense
    do { pad = try VirtualDualSense() } catch { benchFailure("virtual DualSense: \(error)") }
    defer { pad.close() }
    guard let node = try? pad.waitForGamepadNode(), let hidraw = try? pad.waitForHidrawNode() else {
        benchFailure("the virtual DualSense got no event or hidraw node")
    }
    let engine: HapticEngine
    do {
        engine = HapticEngine(outputs: [try HapticEngine.evdevOutput(path: node)])
        try engine.start()
    } catch {
        benchFailure("engine: \(error)")
    }
    defer { engine.stop() }
    guard let device = engine.devices.first else { benchFailure("engine: no device") }
    let raw: FileDescriptor
    do { raw = try FileDescriptor.open(hidraw, .writeOnly, options: [.closeOnExec]) } catch { benchFailure("\(hidraw): \(error)") }
    defer { try? raw.close() }

    let effects: [TriggerEffect]
    do { effects = [try .feedback(zone: 3, strength: 5), try .weapon(start: 2, end: 6, strength: 8)] } catch { benchFailure("\(error)") }
    let reports = effects.map { DualSenseTriggerReport(transport: .usb, left: nil, right: $0).bytes }
    var turn = 0

    /// One call of `side` and the nanoseconds from just before it to its report at the pad.
    func measure(_ side: String) -> Int64 {
        turn += 1
        let before = pad.outputReports.count
        let start = MonotonicInstant.now
        if side == "haptics" {
            do {
                guard try engine.setTriggerEffects(left: nil, right: effects[turn % 2], on: device.id).isScheduled else {
                    benchFailure("engine: the effect was not set")
                }
            } catch {
                benchFailure("engine: \(error)")
            }
        } else {
            let written = reports[turn % 2].withUnsafeBytes { Glibc.write(raw.rawValue, $0.baseAddress, $0.count) }
            guard written == reports[turn % 2].count else { benchFailure("raw C: write: errno \(errno)") }
        }
        let report = firstReport(at: pad, after: before, side: side, kind: "trigger report") { $0.setsRightTrigger }
        // Apart, so that each call finds the pad and the writer idle.
        SystemMonotonicClock.sleep(until: .now + .milliseconds(20))
        return report.receivedAt.nanoseconds - start.nanoseconds
    }

    let sides = ["raw_c", "haptics"]
    let samples = interleavedSamples(sides, measure)
    print("adaptive-triggers: a trigger effect set → its report at a virtual DualSense (USB, hid-playstation), 6 interleaved blocks of 20 per side after 5 warm-up calls each")
    let floor = Double(percentile(samples["raw_c"]!.sorted(), 0.5))
    var entries: [(String, String)] = []
    for side in sides {
        let sorted = samples[side]!.sorted()
        let (p50, p99) = (percentile(sorted, 0.5), percentile(sorted, 0.99))
        let ratio = Double(p50) / floor
        let name = side == "raw_c" ? "raw C write() to the hidraw node" : "engine setTriggerEffects()"
        print("  \(name): p50 \(microseconds(p50)) µs, p99 \(microseconds(p99)) µs, max \(microseconds(sorted.last!)) µs, \(decimal(ratio)) × raw C at p50")
        entries.append((side, jsonObject([("p50_us", microseconds(p50)), ("p99_us", microseconds(p99)),
                                          ("ratio_p50_to_raw_c", decimal(ratio)), ("calls", String(sorted.count))])))
    }
    print("note: QEMU TCG guest: absolute microseconds mean little; the ratio, measured side by side, is the figure.")
    print(jsonObject([("adaptive_triggers", jsonObject(entries))]))
}

/// The first output report after the `before` first ones at `pad` that `matches`, once it came
/// (a bench failure naming `side` and `kind` after 5 s).
func firstReport(at pad: VirtualDualSense, after before: Int, side: String, kind: String,
                 where matches: (DualSenseOutputReport) -> Bool) -> DualSenseOutputReport {
    let received = pad.waitForOutputReports { $0.count > before && $0[before...].contains(where: matches) }
    guard let report = received.dropFirst(before).first(where: matches) else { benchFailure("\(side): no \(kind) within 5 s") }
    return report
}
