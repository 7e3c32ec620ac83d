import Foundation
import Haptics
import HapticsAudio
import HapticsDevices
import HapticsPatterns
import HapticsRendering
import HapticsScheduler
import HapticsSystem

/// `--device` and `--profile`: where to play.
struct DeviceOptions {
    /// `simulated` (the default when no real device is present).
    var device = "simulated"
    /// The profile the simulated device behaves like.
    var profile: DeviceProfile = .simulated

    /// Consumes `--device`/`--profile` if `item` is one of them; returns whether it was.
    mutating func parse(_ item: ArgumentCursor.Item, _ cursor: inout ArgumentCursor) throws(CommandLineError) -> Bool {
        switch item {
        case let .option("device", inline):
            device = try cursor.value(for: "device", inline: inline)
            guard device == "simulated" else {
                throw .usage("unknown device '\(device)' (available: simulated)")
            }
            return true
        case let .option("profile", inline):
            let name = try cursor.value(for: "profile", inline: inline)
            guard let found = DeviceProfile.named(name) else {
                throw .usage("unknown profile '\(name)' (available: \(DeviceProfile.builtins.map(\.name).joined(separator: ", ")))")
            }
            profile = found
            return true
        default:
            return false
        }
    }

    static let help = [
        HelpRow("--device <name>", "Where to play: simulated (default)."),
        HelpRow("--profile <name>", "Device profile the simulated device behaves like (default: simulated)."),
    ]
}

/// One play on a simulated device, in real time through the realtime scheduler.
struct SimulatedRun {
    /// What the engine said.
    let outcome: PlaybackOutcome
    /// What happened to the sound, when `--audio` asked for it.
    var audio: AudioOutcome? = nil
    /// Every command the device received.
    let recording: [RecordedCommand]
    /// When the play was requested (the drawing's time zero).
    let requestedAt: MonotonicInstant
    /// The profile played on.
    let profile: DeviceProfile

    /// Plays `target` on a fresh simulated device (and its sound on `audio`) and waits until it has ended.
    static func play(_ target: PlayTarget, profile: DeviceProfile, audio: AudioChoice = .none) throws(CommandLineError) -> SimulatedRun {
        let device = SimulatedDevice(profile: profile)
        let engine = HapticEngine(outputs: [HapticEngine.Output(device: device, profile: profile)])
        do {
            try engine.start()
        } catch {
            throw .failure("cannot start the engine: \(error)")
        }
        let sound = audio == .none ? nil : try PlaySound(audio, engine: engine, lead: max(.zero, profile.riseTime))
        let requestedAt = engine.now
        let started = try target.start(on: engine, sound: sound, prepare: false)
        if case let .scheduled(feltAt) = started.outcome {
            // Wait until the final stop has gone out, plus a margin for the realtime thread.
            SystemMonotonicClock.sleep(until: feltAt + started.length + .milliseconds(20))
        }
        sound?.finish()
        engine.stop()
        withExtendedLifetime(started.player) {}
        return SimulatedRun(outcome: started.outcome, audio: started.audio, recording: device.recording(),
                            requestedAt: requestedAt, profile: profile)
    }

    /// The recording with times relative to the request, in milliseconds.
    func commandLines(name: String) -> [String] {
        recording.map { record in
            var line = JSONLine()
            line.add("feedback", name)
            line.add("t_ms", (record.time - requestedAt).inMilliseconds, digits: 3)
            line.add("lateness_us", record.lateness.inMicroseconds, digits: 1)
            line.add("channel", record.channel.rawValue)
            record.command.addFields(to: &line)
            return line.text
        }
    }
}

extension ActuatorCommand {
    /// Adds `command` and its magnitudes to a JSON line.
    func addFields(to line: inout JSONLine) {
        switch self {
        case let .rumble(strong, weak):
            line.add("command", "rumble")
            line.add("strong", Int(strong))
            line.add("weak", Int(weak))
        case let .periodic(waveform, period, magnitude):
            line.add("command", "periodic")
            line.add("waveform", "\(waveform)")
            line.add("period_ms", Int(period))
            line.add("magnitude", Int(magnitude))
        case let .constant(level):
            line.add("command", "constant")
            line.add("level", Int(level))
        case .stop:
            line.add("command", "stop")
        }
    }
}
