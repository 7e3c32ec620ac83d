import Haptics
import Synchronization

/// A clock that moves only when the benchmark moves it (from the system's monotonic time at
/// creation): the engine's programs run on it, so an impact's own stop becomes due exactly when the
/// benchmark lets it, between two measured triggers, and never inside one because the emulated CPU
/// stalled for longer than the impact lasts.
final class SteppedClock: HapticClock {
    private let instant = Atomic<Int64>(SystemMonotonicClock().now().nanoseconds)

    func now() -> MonotonicInstant { MonotonicInstant(nanoseconds: instant.load(ordering: .relaxed)) }

    /// Moves the clock `span` ahead.
    func advance(by span: Duration) { instant.add(span.nanoseconds, ordering: .relaxed) }
}

/// "Ours" through the whole engine in the trigger benchmark: a manually driven engine on one evdev
/// device (the uinput sink: `FF_RUMBLE` only, no `FF_GAIN`, so the engine gain is applied in
/// software), an `ImpactFeedbackGenerator` prepared once, and a trigger that is exactly what a game
/// and the realtime thread do for one impact: `impactOccurred(intensity:)` (two lock-free
/// submissions), then the scheduler's processing pass, which performs the impact's first level.
final class EngineFeedbackTrigger {
    /// What a case plays: an impact at `intensity` with the engine at `gain`.
    struct Case {
        /// For people (`intensity 0.7`).
        let name: String
        /// For JSON keys and trace markers (`intensity_0_7`).
        let key: String
        let intensity: Double
        let gain: Double

        /// Intensity 1, intensity 0.7 (played at 11/16), intensity 1 at a software gain of 0.5.
        static let all = [
            Case(name: "intensity 1", key: "intensity_1", intensity: 1, gain: 1),
            Case(name: "intensity 0.7", key: "intensity_0_7", intensity: 0.7, gain: 1),
            Case(name: "gain 0.5", key: "gain_0_5", intensity: 1, gain: 0.5),
        ]
    }

    let actuator: EvdevActuator
    let engine: HapticEngine
    let generator: ImpactFeedbackGenerator
    let intensity: Double
    private let clock = SteppedClock()

    /// Opens the node, creates the engine at the case's gain and prepares the generator (uploads:
    /// control side).
    init(eventNodePath: String, case played: Case) throws(DeviceError) {
        actuator = try EvdevActuator(path: eventNodePath, clock: clock)
        engine = HapticEngine(clock: clock, outputs: [HapticEngine.Output(device: actuator, profile: benchRumble)])
        engine.startManuallyDriven()
        engine.gain = played.gain
        intensity = played.intensity
        generator = ImpactFeedbackGenerator(style: .medium, engine: engine)
        generator.prepare()
    }

    /// One impact: the game's call and the processing pass that performs its first level.
    func trigger() throws(SystemCallError) {
        guard generator.impactOccurred(intensity: intensity).isScheduled else {
            benchFailure("engine: the impact was not scheduled")
        }
        engine.process()
        if let lost = actuator.lossError { throw lost }
    }

    /// Lets the impact end (its own stop, one write): not measured.
    func finish() throws(SystemCallError) {
        clock.advance(by: .seconds(1))
        engine.process()
        if let lost = actuator.lossError { throw lost }
    }

    /// Stops the engine and closes the device.
    func close() {
        engine.stop()
        actuator.close()
    }
}
