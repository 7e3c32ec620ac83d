import Foundation
import Glibc
import Haptics
import HapticsSystem
import HapticsVirtualDevices

/// `Tools/bench idle`: how often an idle engine's threads wake. An engine made as most games make
/// it (`HapticEngine.automatic()`: every pad found, started, watching for pads plugged in), with a
/// virtual DualSense when the kernel offers uhid (in the testbench's guest) and the simulated
/// fallback otherwise, left alone for `seconds`: the context switches of each of its threads
/// (`/proc/self/task/*/status`), per second.
func runIdleBenchmark(seconds: Int) {
    let pad = try? VirtualDualSense()
    if let pad { _ = try? pad.waitForGamepadNode() }
    defer { pad?.close() }
    let engine: HapticEngine
    do { engine = try HapticEngine.automatic() } catch { benchFailure("engine: \(error)") }
    defer { engine.stop() }
    // Settle: the first housekeeping run, the hotplug monitor's first look.
    usleep(500_000)
    let before = threadSwitches()
    usleep(UInt32(seconds) * 1_000_000)
    let after = threadSwitches()
    let device = engine.devices.first.map { "\($0.name)\($0.isSimulatedFallback ? " (simulated fallback)" : "")" } ?? "none"
    print("idle: HapticEngine.automatic() on \(device), left alone \(seconds) s: context switches per thread")
    var total = 0
    var rows: [(String, String)] = []
    // The benchmark's own threads (this one, the virtual pad's reader) are not the engine's.
    let engineThreads = after.keys.sorted().filter { $0 != ThreadIdentity.current && after[$0]!.name != "haptics-uhid" }
    for id in engineThreads {
        let name = after[id]!.name
        let switches = after[id]!.switches - (before[id]?.switches ?? 0)
        total += switches
        print("  \(name) (\(id)): \(switches)")
        rows.append((name, String(switches)))
    }
    let perSecond = Double(total) / Double(seconds)
    print("engine threads: \(engineThreads.count), context switches \(total), \(decimal(perSecond, 1)) per second")
    print(jsonObject([("threads", String(engineThreads.count)), ("context_switches", String(total)),
                      ("per_second", decimal(perSecond, 2)), ("device", JSONString.quoted(device))]))
}

/// Each thread of this process: its name and its context switches so far (voluntary and not).
private func threadSwitches() -> [Int32: (name: String, switches: Int)] {
    var result: [Int32: (name: String, switches: Int)] = [:]
    guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task") else { return result }
    for task in tasks {
        guard let id = Int32(task),
              let status = try? String(contentsOfFile: "/proc/self/task/\(task)/status", encoding: .utf8) else { continue }
        var name = "?"
        var switches = 0
        for line in status.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2 else { continue }
            if parts[0] == "Name" { name = parts[1] }
            if parts[0] == "voluntary_ctxt_switches" || parts[0] == "nonvoluntary_ctxt_switches" { switches += Int(parts[1]) ?? 0 }
        }
        result[id] = (name, switches)
    }
    return result
}
