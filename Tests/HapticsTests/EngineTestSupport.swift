import HapticsDevices
import HapticsPatterns
import HapticsRendering
import HapticsScheduler
@testable import Haptics
import HapticsSystem
import HapticsTestSupport

/// An engine on a manual clock with simulated devices, driven by hand.
struct EngineFixture {
    let clock = ManualClock(start: MonotonicInstant(nanoseconds: 1_000_000_000))
    let devices: [SimulatedDevice]
    let engine: HapticEngine

    init(profiles: [DeviceProfile] = [.genericRumble], configuration: HapticEngine.Configuration = .init()) {
        devices = profiles.map { SimulatedDevice(profile: $0) }
        engine = HapticEngine(
            clock: clock,
            outputs: zip(devices, profiles).map { HapticEngine.Output(device: $0, profile: $1) },
            configuration: configuration
        )
        engine.startManuallyDriven()
    }

    /// Advances the clock in 1 ms steps up to `nanoseconds` from now, processing at each step and
    /// exactly at every deadline the scheduler announces.
    func run(for nanoseconds: Int64) {
        let end = clock.now().advanced(by: nanoseconds)
        while clock.now() < end {
            let next = engine.process()
            let step = clock.now().advanced(by: 1_000_000)
            var target = min(step, end)
            if let next, next > clock.now(), next < target { target = next }
            clock.advance(to: target)
        }
        engine.process()
    }

    /// What device `index` received: (ns after `origin`, command).
    func received(_ index: Int = 0, since origin: MonotonicInstant) -> [(Int64, ActuatorCommand)] {
        devices[index].recording().map { ($0.time.nanoseconds - origin.nanoseconds, $0.command) }
    }
}

/// The commands of a program, shifted to start at `start`: what a device should receive.
func expected(_ program: Program, startingAt start: Int64 = 0) -> [(Int64, ActuatorCommand)] {
    program.commands.map { (start + $0.offsetNanoseconds, $0.command) }
}

func same(_ a: [(Int64, ActuatorCommand)], _ b: [(Int64, ActuatorCommand)]) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
}
