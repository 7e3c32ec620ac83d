import Haptics
import HapticsC
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
/// does for one impact: `impactOccurred(intensity:)`, whose two submissions the processing pass on
/// the game's thread (an immediate group's end) plays at once — the impact's first level.
final class EngineFeedbackTrigger {
    /// What a case plays: an impact at `intensity` with the engine at `gain`.
    struct Case {
        /// For people (`intensity 0.7`).
        let name: String
        /// For JSON keys and trace markers (`intensity_0_7`).
        let key: String
        let intensity: Double
        let gain: Double
        /// Whether the game calls the C interface (`haptics_prepare`, `haptics_play`) instead of
        /// the Swift generator.
        var viaC = false
        /// Whether the engine traces (`startTracing()`): the same trigger with every stage
        /// recorded, to show what tracing costs the game's call and the processing pass.
        var traced = false

        /// Intensity 1, intensity 0.7 (played at 11/16), intensity 1 at a software gain of 0.5,
        /// intensity 0.7 through the C interface, and intensity 1 traced.
        static let all = [
            Case(name: "intensity 1", key: "intensity_1", intensity: 1, gain: 1),
            Case(name: "intensity 0.7", key: "intensity_0_7", intensity: 0.7, gain: 1),
            Case(name: "gain 0.5", key: "gain_0_5", intensity: 1, gain: 0.5),
            Case(name: "intensity 0.7 from C", key: "c_intensity_0_7", intensity: 0.7, gain: 1, viaC: true),
            Case(name: "intensity 1, tracing", key: "traced_intensity_1", intensity: 1, gain: 1, traced: true),
        ]
    }

    let actuator: EvdevActuator
    let engine: HapticEngine
    let generator: ImpactFeedbackGenerator
    let intensity: Double
    /// The engine as a C `haptics_engine *` (the C case only).
    let handle: OpaquePointer?
    private let clock = SteppedClock()
    /// `HAPTICS_IMPACT_MEDIUM`, the generator's style.
    private static let mediumImpact: Int32 = 4

    /// Opens the node, creates the engine at the case's gain and prepares the generator (uploads:
    /// control side).
    init(eventNodePath: String, case played: Case) throws(DeviceError) {
        actuator = try EvdevActuator(path: eventNodePath, clock: clock)
        engine = HapticEngine(clock: clock, outputs: [HapticEngine.Output(device: actuator, profile: benchRumble)])
        engine.startManuallyDriven()
        engine.gain = played.gain
        intensity = played.intensity
        generator = ImpactFeedbackGenerator(style: .medium, engine: engine)
        if played.viaC {
            let handle = _hapticsEngineHandle(for: engine)
            self.handle = handle
            guard haptics_prepare(handle, Self.mediumImpact) == 0 else { benchFailure("engine from C: haptics_prepare failed") }
        } else {
            handle = nil
            generator.prepare()
        }
        // The trace ring (4096 records) holds every stage of the benchmark's triggers: nothing
        // needs to drain it while measuring.
        if played.traced { engine.startTracing() }
    }

    /// One impact: the game's call, which performs its first level on this thread.
    func trigger() throws(SystemCallError) {
        if let handle {
            guard haptics_play(handle, Self.mediumImpact, intensity, 0, nil) == 0 else {
                benchFailure("engine from C: haptics_play did not schedule the impact")
            }
        } else {
            guard generator.impactOccurred(intensity: intensity).isScheduled else {
                benchFailure("engine: the impact was not scheduled")
            }
        }
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
        if let handle { haptics_engine_free(handle) }
        engine.stop()
        actuator.close()
    }
}
