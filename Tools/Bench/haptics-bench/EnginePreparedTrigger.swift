import CEvdev
import HapticsDevices
import HapticsRendering

/// "Ours" in the trigger benchmark: the engine's prepared-trigger path on one evdev device, kept in
/// this one type so the benchmark compares exactly this against the raw C `write()` loop.
///
/// Today it drives the typed system-call layer the evdev actuator is built on: the effect is
/// uploaded once with `EVIOCSFF` (``init(eventNodePath:)``, the prepare step) and every
/// ``trigger()`` is one `FileDescriptor.writeInputEvent` — one `write()` of an `EV_FF` event.
///
/// When the evdev actuator is available, only this file changes: `init` creates the actuator on
/// `eventNodePath` and calls `prepare(program)` with ``program``; ``trigger()`` calls
/// `perform(playCommand, channel:deadline:now:)` and ``stop()`` calls `perform(.stop, …)`. The
/// benchmark around it stays as it is: it learns which effect is ours from the upload the sink
/// received, not from this type.
final class EnginePreparedTrigger {
    /// The command a trigger plays: a dual-motor rumble at fixed magnitudes.
    static let playCommand = ActuatorCommand.rumble(strong: 0xC000, weak: 0x4000)

    /// A one-command program, for outputs that prepare whole programs.
    static let program = Program(
        profileName: benchRumble.name,
        commands: [
            TimedCommand(offset: 0, intensity: 1, sharpness: 0.5, command: playCommand),
            TimedCommand(offset: 20_000_000, intensity: 0, sharpness: 0, command: .stop),
        ],
        duration: 20_000_000, leadTime: 0)

    private let device: FileDescriptor
    private let effectID: Int16

    /// Opens the event node and uploads the effect (the prepare step: control side, may do ioctls).
    init(eventNodePath: String) throws(SystemCallError) {
        let device = try FileDescriptor.open(eventNodePath, .readWrite)
        var effect = ff_effect()
        effect.type = UInt16(FF_RUMBLE)
        effect.id = -1  // The kernel picks a free slot and writes its id back.
        if case let .rumble(strong, weak) = Self.playCommand {
            effect.u.rumble.strong_magnitude = strong
            effect.u.rumble.weak_magnitude = weak
        }
        do {
            try device.uploadEffect(&effect)
        } catch {
            try? device.close()
            throw error
        }
        self.device = device
        self.effectID = effect.id
    }

    /// Plays the prepared effect: the measured trigger.
    func trigger() throws(SystemCallError) {
        try device.writeInputEvent(type: UInt16(EV_FF), code: UInt16(bitPattern: effectID), value: 1)
    }

    /// Stops the effect (between measured triggers, not measured).
    func stop() throws(SystemCallError) {
        try device.writeInputEvent(type: UInt16(EV_FF), code: UInt16(bitPattern: effectID), value: 0)
    }

    /// Closes the device; the kernel stops and erases the uploaded effect.
    func close() {
        try? device.close()
    }
}
