import Foundation
import Haptics
import HapticsDevices
import HapticsPatterns
import HapticsRendering
import HapticsScheduler

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
    /// Every command the device received.
    let recording: [RecordedCommand]
    /// When the play was requested (the drawing's time zero).
    let requestedAt: MonotonicInstant
    /// The profile played on.
    let profile: DeviceProfile

    /// Plays `target` on a fresh simulated device and waits until it has ended.
    static func play(_ target: PlayTarget, profile: DeviceProfile) throws(CommandLineError) -> SimulatedRun {
        let device = SimulatedDevice(profile: profile)
        let engine = HapticEngine(outputs: [HapticEngine.Output(device: device, profile: profile)])
        do {
            try engine.start()
        } catch {
            throw .failure("cannot start the engine: \(error)")
        }
        let requestedAt = engine.now
        let outcome: PlaybackOutcome
        var length: Int64
        var player: HapticPatternPlayer?
        switch target {
        case let .feedback(feedback):
            outcome = engine.play(feedback)
            length = Renderer(profile: profile).render(feedback.canonicalPattern).duration
        case let .file(path, pattern, _):
            do {
                player = try engine.makePlayer(pattern: pattern)
            } catch {
                throw .failure("\(path): cannot load the pattern: \(error)")
            }
            outcome = player!.start()
            length = player!.duration
        }
        if case let .scheduled(feltAt) = outcome {
            // Wait until the final stop has gone out, plus a margin for the realtime thread.
            let end = feltAt.nanoseconds + length + 20_000_000
            let remaining = end - engine.now.nanoseconds
            if remaining > 0 { Thread.sleep(forTimeInterval: Double(remaining) / 1e9) }
        }
        engine.stop()
        withExtendedLifetime(player) {}
        return SimulatedRun(outcome: outcome, recording: device.recording(), requestedAt: requestedAt, profile: profile)
    }

    /// The recording with times relative to the request, in milliseconds.
    func commandLines(name: String) -> [String] {
        recording.map { record in
            var line = JSONLine()
            line.add("feedback", name)
            line.add("t_ms", Double(record.time.nanoseconds - requestedAt.nanoseconds) / 1e6, digits: 3)
            line.add("lateness_us", Double(record.time.nanoseconds - record.deadline.nanoseconds) / 1e3, digits: 1)
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
