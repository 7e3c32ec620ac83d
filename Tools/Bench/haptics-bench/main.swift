// haptics-bench: benchmarks of the realtime scheduler, the device trigger and sound/haptic sync (not tests). Run through `Tools/bench <name>`.
// Each benchmark prints human-readable lines, then one JSON object as its last line.
//
// The work happens in nonisolated functions in other files: top-level code here is @MainActor, and a
// closure written here and run on another thread would trap on the isolation check.

import Glibc

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "scheduler":
    runSchedulerBenchmark()
case "submit":
    runSubmitBenchmark(instructionsPerSubmit: arguments.dropFirst().first.flatMap(Double.init))
case "curve":
    runCurveBenchmark()
case "submit-count":
    runSubmitCount(arguments.dropFirst().first.flatMap(Int.init) ?? 0)
case "calls-count":
    runCallCount(Array(arguments.dropFirst()))
case "trigger":
    runTriggerBenchmark()
case "sync":
    runSyncBenchmark()
case "peers":
    runPeersBenchmark()
case "game":
    runGameBenchmark(rounds: arguments.dropFirst().first.flatMap(Int.init) ?? 6,
                     peers: arguments.count > 2 ? arguments.dropFirst(2).map { String($0.map { $0 == "-" ? "_" : $0 }) } : GameBenchmark.peers)
case "adaptive-triggers":
    runAdaptiveTriggerBenchmark()
case "hd-haptics":
    runHDHapticsBenchmark()
case "idle":
    runIdleBenchmark(seconds: arguments.dropFirst().first.flatMap(Int.init) ?? 5)
case "game-client":
    runGameClient(Array(arguments.dropFirst()))
case "peers-window":
    runPeersWindow(triggers: arguments.dropFirst().first.flatMap(Int.init) ?? tracedPeerTriggers)
case "scale":
    runScaleBenchmark(devices: arguments.dropFirst().first.flatMap(Int.init) ?? 32)
case "scale-pass":
    runScalePass()
case "sound-feed":
    runSoundFeedBenchmark()
case "scale-setup":
    runScaleSetup(devices: arguments.dropFirst().first.flatMap(Int.init) ?? 32)
case "trigger-window":
    runTriggerWindow(triggers: arguments.dropFirst().first.flatMap(Int.init) ?? tracedTriggers)
default:
    print("usage: haptics-bench scheduler | submit [instructions-per-submit] | submit-count <submissions> | calls-count <scenario> <mode> <calls> | curve | trigger | trigger-window <triggers> | peers | peers-window <triggers> | game [rounds [peer…]] | adaptive-triggers | hd-haptics | idle [seconds] | game-client <peer> <node> <log> | scale [devices] | scale-setup [devices] | scale-pass | sound-feed | sync")
    exit(64)
}
