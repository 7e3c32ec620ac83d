import HapticsDevices
import HapticsRendering
import HapticsScheduler
import HapticsSystem

/// "Ours" in the trigger benchmark: the engine's prepared-trigger path on one evdev device, kept in
/// this one type so the benchmark compares exactly this against the raw C `write()` loop.
///
/// It is the engine's own `EvdevActuator`: ``init(eventNodePath:)`` opens the node and prepares a
/// one-level program (the `EVIOCSFF` upload happens there, control side); every ``trigger()`` is the
/// call the realtime thread makes, `perform(playCommand, …)`, which for a prepared level is one
/// `write()` of an `EV_FF` event. The benchmark learns which effect is ours from the upload the sink
/// received, not from this type.
final class EnginePreparedTrigger {
    /// The command a trigger plays: a dual-motor rumble at fixed magnitudes.
    static let playCommand = ActuatorCommand.rumble(strong: 0xC000, weak: 0x4000)

    /// A one-command program: what `prepare` uploads.
    static let program = Program(
        profileName: benchRumble.name,
        commands: [
            TimedCommand(offsetNanoseconds: 0, intensity: 1, sharpness: 0.5, command: playCommand),
            TimedCommand(offsetNanoseconds: 20_000_000, intensity: 0, sharpness: 0, command: .stop),
        ],
        durationNanoseconds: 20_000_000, leadTimeNanoseconds: 0)

    private let actuator: EvdevActuator
    private let clock = SystemMonotonicClock()
    private let channel = ChannelID(rawValue: 0)

    /// Opens the event node and prepares the program (the upload: control side, may do ioctls).
    init(eventNodePath: String) throws(DeviceError) {
        actuator = try EvdevActuator(path: eventNodePath, clock: clock)
        do {
            try actuator.prepare(Self.program)
        } catch {
            actuator.close()
            throw error
        }
    }

    /// Plays the prepared level: the measured trigger, exactly what the realtime thread calls with
    /// the clock reading it already made (`now`, as the scheduler passes it).
    func trigger(now: MonotonicInstant) throws(SystemCallError) {
        actuator.perform(Self.playCommand, channel: channel, deadline: now, now: now)
        if let lost = actuator.lossError { throw lost }
    }

    /// Stops the level (between measured triggers, not measured).
    func stop() throws(SystemCallError) {
        let now = clock.now()
        actuator.perform(.stop, channel: channel, deadline: now, now: now)
        if let lost = actuator.lossError { throw lost }
    }

    /// Stops, erases and closes.
    func close() {
        actuator.close()
    }
}
