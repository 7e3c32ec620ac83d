import Haptics
import HapticsVirtualDevices

/// The C interface's cost over the Swift one, at the device: a prepared medium impact at 0.7 played by
/// the Swift generator (`impactOccurred(intensity:)`) and by `haptics_play`, each on its own engine and
/// uinput sink, timed from a CLOCK_MONOTONIC reading just before the game's call to the kernel's stamp
/// of the `EV_FF` play at the sink, in alternating blocks so both sample the same load. Each trigger
/// is the game's call and the processing pass that writes it (``EngineFeedbackTrigger``); the impact's
/// stop follows outside what is timed. Prints the figures and returns the JSON pairs.
func measureCVersusSwiftLatency(blocks: Int = 10, perBlock: Int = 200, warmUp: Int = 50) -> [(String, String)] {
    let swiftCase = EngineFeedbackTrigger.Case.all.first { $0.key == "intensity_0_7" }!
    let cCase = EngineFeedbackTrigger.Case.all.first { $0.key == "c_intensity_0_7" }!
    let sides: [(sink: UInputForceFeedbackSink, engine: EngineFeedbackTrigger)]
    do {
        sides = try [swiftCase, cCase].map { played in
            let sink = try UInputForceFeedbackSink(.init(name: "haptics-bench \(played.key) sink"))
            return (sink, try EngineFeedbackTrigger(eventNodePath: sink.eventNodePath, case: played))
        }
    } catch {
        benchFailure("C versus Swift: cannot set up the sinks and engines: \(error)")
    }
    defer {
        for side in sides {
            side.engine.close()
            side.sink.close()
        }
    }
    var seen = sides.map { $0.sink.records.count }
    let clock = SystemMonotonicClock()
    func once(_ index: Int) -> Int64 {
        let (sink, engine) = sides[index]
        let start = clock.now().nanoseconds
        do {
            try engine.trigger()
            try engine.finish()
        } catch {
            benchFailure("C versus Swift: \(index == 0 ? "Swift" : "C"): \(error)")
        }
        let records = sink.waitForRecords(count: seen[index] + 2)
        guard records.count >= seen[index] + 2, case let .play(effectID, 1) = records[seen[index]].event,
              records[seen[index] + 1].event == .stop(effectID: effectID)
        else {
            benchFailure("C versus Swift: expected a play and its stop, the sink received \(sink.records.dropFirst(seen[index]).map(\.event))")
        }
        let latency = records[seen[index]].timestamp.nanoseconds - start
        seen[index] += 2
        return latency
    }
    for _ in 0..<warmUp {
        _ = once(0)
        _ = once(1)
    }
    var latencies: [[Int64]] = [[], []]
    for block in 0..<(2 * blocks) {
        for _ in 0..<perBlock { latencies[block % 2].append(once(block % 2)) }
    }
    let swift = latencies[0].sorted()
    let c = latencies[1].sorted()
    let ratio = Double(percentile(c, 0.5)) / Double(max(1, percentile(swift, 0.5)))
    print("the C interface against Swift, prepared impact at 0.7, game call → kernel stamp of the EV_FF play at the sink, \(blocks) alternating blocks of \(perBlock) per side after \(warmUp) warm-up triggers each:")
    print("  Swift impactOccurred: p50 \(microseconds(percentile(swift, 0.5))) µs, p99 \(microseconds(percentile(swift, 0.99))) µs")
    print("  C haptics_play      : p50 \(microseconds(percentile(c, 0.5))) µs, p99 \(microseconds(percentile(c, 0.99))) µs")
    print("  ratio_p50 (C / Swift): \(decimal(ratio))")
    return [
        ("engine_swift_p50_us", microseconds(percentile(swift, 0.5))),
        ("engine_c_p50_us", microseconds(percentile(c, 0.5))),
        ("c_over_swift_ratio_p50", ratio.isFinite ? decimal(ratio) : "null"),
    ]
}
