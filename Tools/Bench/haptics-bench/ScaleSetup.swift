import Glibc
import HapticsDevices
import HapticsRendering
import HapticsScheduler
import HapticsSystem
import HapticsVirtualDevices

/// The scale benchmark's pads: a uinput sink each, an `EvdevActuator` open on its event node with
/// the program prepared, and a scheduler channel and player — and how long each setup step took.
struct ScalePads {
    var sinks: [UInputForceFeedbackSink] = []
    var pads: [TimedPad] = []
    var players: [PlayerID] = []
    /// Wall time of each step summed over the pads, nanoseconds.
    var createNanoseconds: Int64 = 0
    var openNanoseconds: Int64 = 0
    var prepareNanoseconds: Int64 = 0
    var totalNanoseconds: Int64 = 0

    /// Creates `devices` pads for `program` on `scheduler`, each recording up to `capacity` updates.
    init(devices: Int, program: Program, loaded: ProgramID, scheduler: Scheduler, capacity: Int) throws {
        let clock = SystemMonotonicClock()
        let begin = clock.now().nanoseconds
        for index in 0..<devices {
            let created = clock.now().nanoseconds
            let sink = try UInputForceFeedbackSink(.init(name: "haptics-bench scale pad \(index)"))
            sinks.append(sink)
            let opened = clock.now().nanoseconds
            let actuator = try EvdevActuator(path: sink.eventNodePath)
            let prepared = clock.now().nanoseconds
            try actuator.prepare(program)
            let done = clock.now().nanoseconds
            createNanoseconds += opened - created
            openNanoseconds += prepared - opened
            prepareNanoseconds += done - prepared
            if index % 8 == 7 || index == devices - 1 {
                progress("scale: \(index + 1) pads set up after \(decimal(Double(done - begin) / 1e9, 2)) s")
            }
            let pad = TimedPad(pad: actuator, capacity: capacity)
            pads.append(pad)
            let channel = try scheduler.addChannel(output: pad, profile: benchRumble, policy: .replace)
            players.append(try scheduler.makePlayer(program: loaded, channel: channel))
        }
        totalNanoseconds = clock.now().nanoseconds - begin
    }

    /// One line: the setup time and where it went.
    var summary: String {
        func s(_ nanoseconds: Int64) -> String { decimal(Double(nanoseconds) / 1e9, 2) }
        return "setup: \(sinks.count) pads in \(s(totalNanoseconds)) s (creating the uinput sinks \(s(createNanoseconds)) s, opening the actuators \(s(openNanoseconds)) s, preparing (EVIOCSFF uploads) \(s(prepareNanoseconds)) s)"
    }

    /// Closes every actuator, then every sink.
    func close() {
        for pad in pads { pad.pad.close() }
        for sink in sinks { sink.close() }
    }
}

/// `haptics-bench scale-setup [devices]` (in the guest): sets up the scale benchmark's pads only and
/// says how long each step took.
func runScaleSetup(devices: Int) {
    let program = alternatingLevels(1_000, period: 1_000_000)
    let scheduler = Scheduler(clock: SystemMonotonicClock(), configuration: SchedulerConfiguration(queueCapacity: 4_096, maximumChannels: devices))
    do {
        let loaded = try scheduler.load(program)
        let pads = try ScalePads(devices: devices, program: program, loaded: loaded, scheduler: scheduler, capacity: 1)
        print(pads.summary)
        let clock = SystemMonotonicClock()
        let begin = clock.now().nanoseconds
        pads.close()
        print("teardown: \(decimal(Double(clock.now().nanoseconds - begin) / 1e9, 2)) s")
        print(jsonObject([
            ("devices", String(devices)),
            ("setup_s", decimal(Double(pads.totalNanoseconds) / 1e9, 2)),
            ("create_s", decimal(Double(pads.createNanoseconds) / 1e9, 2)),
            ("open_s", decimal(Double(pads.openNanoseconds) / 1e9, 2)),
            ("prepare_s", decimal(Double(pads.prepareNanoseconds) / 1e9, 2)),
        ]))
    } catch {
        benchFailure("cannot set up \(devices) pads: \(error)")
    }
}
