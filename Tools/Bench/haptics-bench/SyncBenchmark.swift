import HapticsMeasurement
import Glibc
import HapticsCommandLine
import HapticsPatterns
import HapticsSystem

/// Cues per run.
let syncCues = 100

/// `sync`: how closely a cue's sound is heard when its haptic is felt, through snd-aloop and a
/// uinput device in a real kernel — the engine's one timeline against the naive way (start the
/// haptic and write the sound at the same moment, no compensation).
///
/// Both runs play the same 100 cues (the five impacts and selection in turn: single pulses of
/// ≤ 160 ms, 300 ms apart) on a uinput device with the generic rumble profile (60 ms rise time).
/// A cue's residual is heard − felt: the sound's onset in the capture minus (the kernel's receipt
/// time of the haptic start + the rise time). The figures are percentiles of |residual|.
func runSyncBenchmark() {
    let items: [Feedback] = [.impact(.light), .impact(.medium), .impact(.heavy), .impact(.soft), .impact(.rigid), .selection]
    let cues = (0..<syncCues).map { SyncLoopbackTest.Cue.feedback(items[$0 % items.count]) }
    var configuration = SyncLoopbackTest.Configuration()
    configuration.spacing = .milliseconds(300)
    var results: [SyncLoopbackTest.Result] = []
    for compensated in [true, false] {
        configuration.compensated = compensated
        do {
            results.append(try SyncLoopbackTest(configuration: configuration).run(cues))
        } catch {
            print("sync: \(error)")
            print(jsonObject([("cues", "0"), ("residual_p50_ms", "null"), ("residual_p95_ms", "null"), ("residual_max_ms", "null"),
                              ("alsa_period_ms", "null"), ("naive_residual_p50_ms", "null"), ("naive_residual_p95_ms", "null"),
                              ("naive_residual_max_ms", "null")]))
            exit(1)
        }
    }
    let (engine, naive) = (results[0], results[1])
    func ms(_ span: Duration?) -> String { span.map { decimal(Double($0.nanoseconds) / 1e6) } ?? "null" }
    func mean(_ result: SyncLoopbackTest.Result) -> Double {
        Double(result.measurements.map(\.residual).reduce(.zero, +).nanoseconds) / Double(max(1, result.measurements.count)) / 1e6
    }
    for (name, result) in [("engine", engine), ("naive", naive)] {
        print("\(name): \(result.measurements.count) cues measured, mean residual \(decimal(mean(result))) ms (heard − felt), "
            + "output latency \(ms(result.latency)) ms, rise time \(ms(result.profile.riseTime)) ms; haptic start = \(result.hapticTiming)")
        for missing in result.missing { print("\(name): not found: \(missing)") }
    }
    print(jsonObject([
        ("cues", String(engine.measurements.count)),
        ("residual_p50_ms", ms(engine.absoluteResidual(percentile: 0.5))),
        ("residual_p95_ms", ms(engine.absoluteResidual(percentile: 0.95))),
        ("residual_max_ms", ms(engine.absoluteResidual(percentile: 1))),
        ("alsa_period_ms", ms(engine.period)),
        ("naive_residual_p50_ms", ms(naive.absoluteResidual(percentile: 0.5))),
        ("naive_residual_p95_ms", ms(naive.absoluteResidual(percentile: 0.95))),
        ("naive_residual_max_ms", ms(naive.absoluteResidual(percentile: 1))),
    ]))
}
