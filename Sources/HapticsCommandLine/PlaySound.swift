import HapticsMeasurement
import Foundation
import Haptics
import HapticsAudio
import HapticsPatterns
import HapticsScheduler
import HapticsSystem

/// The sound side of one `play` run: an audio output attached to the run's engine, the onset it
/// plays at, and, at the end, the sound written out (WAV) or heard out (ALSA).
final class PlaySound {
    let choice: AudioChoice
    let output: AudioOutput
    /// The instant the run should be felt and heard; for a WAV file, the instant of its frame 0.
    let onset: MonotonicInstant

    /// Attaches an output for `choice` (not `.none`) to `engine`; `lead` is how long before its
    /// felt onset the target must start on the device.
    init(_ choice: AudioChoice, engine: HapticEngine, lead: Duration) throws(CommandLineError) {
        self.choice = choice
        let format = AudioStreamFormat()
        let period = format.duration(ofFrames: Int64(format.periodFrames))
        var cues: SoundCueLibrary?
        switch choice {
        case .none:
            preconditionFailure("no sound output for --audio none")
        case let .wav(path):
            // The cues are decoded first, so that the onset is counted from when only opening the
            // file and asking for the play are left; 250 ms leaves room for a machine busy enough
            // to stall that long (under a sanitizer, beside a full test run): a play late for
            // frame 0 would shift the sound in the file. Nobody listens in real time.
            cues = SoundCueLibrary.builtin(outputRate: format.sampleRate)
            onset = engine.now + max(lead, period) + .milliseconds(250)
            output = AudioOutput(sink: WAVFileSink(path: path, format: format, timing: .offline(start: onset)))
        case let .alsa(device):
            output = AudioOutput(sink: ALSAAudioSink(device: device, format: format))
            do {
                try output.start()
            } catch {
                throw .failure(error.description)
            }
            onset = MonotonicInstant(nanoseconds: 0)  // as soon as possible
        }
        do {
            try engine.attachAudio(output, soundCues: cues)
        } catch {
            output.stop()
            throw .failure(error.description)
        }
    }

    /// When to play: the WAV file's frame 0, or as soon as possible on a device.
    var requestedOnset: MonotonicInstant? {
        if case .wav = choice { return onset }
        return nil
    }

    /// Lets every scheduled voice finish: mixed into the WAV file, or played out by the device.
    func finish() {
        switch choice {
        case .none:
            break
        case .wav:
            // Offline: mix period after period until the last voice is done (at most a minute).
            var periods = 0
            while output.statistics.completed < output.statistics.scheduled, periods < 11_250 {
                output.process()
                periods += 1
            }
        case .alsa:
            let deadline = MonotonicInstant.now + .seconds(30)
            while output.statistics.completed < output.statistics.scheduled, !output.isDeviceLost, MonotonicInstant.now < deadline {
                SystemMonotonicClock.sleep(until: MonotonicInstant.now + .milliseconds(10))
            }
            // What was mixed last is still in the device's buffer: let it be heard.
            SystemMonotonicClock.sleep(until: MonotonicInstant.now + output.minimumLeadTime)
        }
        output.stop()
    }

    /// Adds the sound's outcome to a JSON summary (`audio`, `audio_reason` or `heard_ms`).
    static func add(_ outcome: AudioOutcome, requestedAt: MonotonicInstant, to line: inout JSONLine) {
        switch outcome {
        case let .scheduled(audibleAt):
            line.add("audio", "scheduled")
            line.add("heard_ms", (audibleAt - requestedAt).inMilliseconds, digits: 3)
        case let .notPlayed(reason):
            line.add("audio", "not-played")
            line.add("audio_reason", reason.rawValue)
        }
    }

    /// The sound's outcome for people.
    static func text(_ outcome: AudioOutcome, requestedAt: MonotonicInstant) -> String {
        switch outcome {
        case let .scheduled(audibleAt):
            return "heard at +\(JSONLine.number((audibleAt - requestedAt).inMilliseconds, digits: 1)) ms"
        case let .notPlayed(reason):
            return "sound not played: \(reason)"
        }
    }
}
