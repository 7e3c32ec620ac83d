import HapticsMeasurement
import Haptics
import HapticsAudio
import HapticsDevices
import HapticsRendering
import HapticsSystem

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
    /// What of a feedbackd event was not felt, or heard from where.
    var notes: [String] = []

    /// Plays `target` on a fresh simulated device (and its sound on `audio`) and waits until it has
    /// ended; with `live`, the motors are drawn on one line of it while it plays (erased at the end).
    static func play(_ target: PlayTarget, profile: DeviceProfile, audio: AudioChoice = .none,
                     trace: TraceFile? = nil, live: Console? = nil) throws(CommandLineError) -> SimulatedRun {
        let device = SimulatedDevice(profile: profile)
        var drawn = false
        let whilePlaying: ((Duration) -> Void)? = live.map { console in
            { elapsed in
                let levels = LiveMotorLine.levels(device.recording(), at: MonotonicInstant.now)
                console.write(LiveMotorLine.format(strong: levels.strong, weak: levels.weak, elapsed: elapsed))
                drawn = true
            }
        }
        let played = try target.playToTheEnd(on: HapticEngine.Output(device: device, profile: profile), audio: audio, prepare: false,
                                             trace: trace, whilePlaying: whilePlaying)
        if drawn { live?.write(LiveMotorLine.clear) }
        return SimulatedRun(outcome: played.outcome, audio: played.audio, recording: device.recording(),
                            requestedAt: played.requestedAt, profile: profile, notes: played.notes)
    }

    /// The recording with times relative to the request, in milliseconds.
    func commandLines(name: String) -> [String] {
        recording.map { record in
            var line = JSONLine(record: "device-command")
            line.add("feedback", name)
            line.add("t_ms", (record.time - requestedAt).inMilliseconds, digits: 3)
            line.add("lateness_us", record.lateness.inMicroseconds, digits: 1)
            line.add("channel", record.channel.rawValue)
            record.command.addFields(to: &line)
            return line.text
        }
    }
}
