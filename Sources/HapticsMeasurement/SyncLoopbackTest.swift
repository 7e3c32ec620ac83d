#if canImport(Glibc)
import Glibc
#endif
import Haptics
import HapticsAudio
import HapticsDevices
import HapticsPatterns
import HapticsRendering
import HapticsScheduler
import Synchronization
import HapticsSystem

/// Measures how closely sound and haptics land together, through a loopback sound card.
///
/// Cues are played through a `HapticEngine`: the haptic on a force-feedback device (by default a
/// uinput device it creates, which sees every play with the kernel's timestamp), the sound through
/// an ALSA device whose output is captured again (snd-aloop: play `hw:Loopback,0,0`, capture
/// `hw:Loopback,1,0`) with monotonic timestamps. For each cue the sound's onset is found in the
/// capture and compared with the moment the haptic reached the device plus the profile's rise
/// time: the **residual** is heard − felt, 0 when both land together.
///
/// `haptics sync-test`, the `sync` benchmark and the kernel test all run this. It creates a
/// device and plays sound for `cues × spacing`; not for the realtime path.
public struct SyncLoopbackTest: Sendable {
    /// What to measure with.
    public struct Configuration: Sendable {
        /// The ALSA device the engine plays sound on.
        public var playbackDevice = "hw:Loopback,0,0"
        /// The ALSA device that captures what was played.
        public var captureDevice = "hw:Loopback,1,0"
        /// The force-feedback event node; `nil`: a uinput device created for the test when
        /// `/dev/uinput` is writable, else the first force-feedback device.
        public var hapticDevice: String?
        /// Where force-feedback devices are looked for when no uinput device can be created.
        public var inputDirectory = "/dev/input"
        /// The profile of the created uinput device (its rise time is what the engine compensates).
        public var profile: DeviceProfile = .genericRumble
        /// The audio stream: 48 kHz, 256-frame periods (5.33 ms) × 4 by default.
        public var format = AudioStreamFormat(sampleRate: 48_000, periodFrames: 256, periodCount: 4)
        /// Time between cues: longer than the longest cue (notification.error: 480 ms) plus the rise
        /// time, so that no haptic of one cue is taken for the next one's start.
        public var spacing: Duration = .milliseconds(600)
        /// `true`: the engine's one timeline (haptic early by the rise time, sound placed to be heard
        /// at the same instant). `false`: the naive way — start the haptic and write the sound at the
        /// same moment, without compensation.
        public var compensated = true
        /// Where to write the engine's trace of the run (Chrome/Perfetto JSON), if anywhere.
        public var tracePath: String?

        /// The defaults: snd-aloop, a uinput device with the generic rumble profile.
        public init() {}
    }

    /// One thing to play.
    public enum Cue: Sendable, Hashable {
        /// A vocabulary item with its sound cue.
        case feedback(Feedback)
        /// An AHAP file with `AudioCustom` sound (its first audio and haptic events at the same time).
        case pattern(path: String)

        /// How the cue is named in tables.
        public var name: String {
            switch self {
            case let .feedback(feedback): return feedback.name
            case let .pattern(path): return path.split(separator: "/").last.map(String.init) ?? path
            }
        }
    }

    /// What one cue measured; instants on `CLOCK_MONOTONIC`.
    public struct Measurement: Sendable, Hashable {
        /// The cue.
        public var cue: Cue
        /// The instant the cue was meant to be felt and heard (compensated), or played (naive).
        public var onset: MonotonicInstant
        /// When the haptic's first play reached the device.
        public var hapticStart: MonotonicInstant
        /// The device profile's rise time: the haptic is felt this long after it starts.
        public var riseTime: Duration
        /// When the sound's first frame was captured.
        public var heard: MonotonicInstant
        /// The longest stall of the whole machine (``Stall``) between the instant the haptic was due
        /// to start and the instant it reached the device, if the probe saw one: how late the
        /// machine, not the engine, can have made the haptic.
        public var hapticStall: Duration? = nil
        /// The engine's write that started the haptic, from its trace: `nil` when the trace holds
        /// none before the start.
        public var hapticWrite: HapticWrite? = nil

        /// When the haptic is felt: its start plus the rise time.
        public var felt: MonotonicInstant { hapticStart + riseTime }
        /// Heard − felt: positive when the sound comes late.
        public var residual: Duration { heard - felt }
    }

    /// The engine's write that started a haptic (its last sounding write on the device's channel
    /// that began at or before the start): when it was due, when it began and returned, and the
    /// thread that made it — what tells a haptic the engine wrote late from one the device got late.
    public struct HapticWrite: Sendable, Hashable {
        /// When the write was due.
        public var deadline: MonotonicInstant
        /// When the output's `perform` began.
        public var began: MonotonicInstant
        /// When it returned.
        public var returned: MonotonicInstant
        /// The thread that wrote it, as the trace names it (`nil` when the trace has no name).
        public var thread: String?
        /// When that thread's wake timer woke it for this write's deadline (the realtime thread's
        /// `woke` record); `nil` for a write on a caller's thread, or when the thread was not
        /// asleep for it.
        public var woke: MonotonicInstant?

        /// A write.
        public init(deadline: MonotonicInstant, began: MonotonicInstant, returned: MonotonicInstant, thread: String?,
                    woke: MonotonicInstant? = nil) {
            self.deadline = deadline
            self.began = began
            self.returned = returned
            self.thread = thread
            self.woke = woke
        }

        /// How late it began: negative when early.
        public var lateness: Duration { began - deadline }

        /// The write in `trace` that started a haptic the device saw start at `start` on `channel`:
        /// the last sounding write (or renewal) on the channel that began at or before it, with the
        /// last `woke` record of its thread for its deadline before it began (a wake-up that came
        /// before the deadline is followed by another); `nil` when there is none.
        public init?(startingHapticAt start: MonotonicInstant, on channel: Int32, in trace: Trace) {
            guard let write = trace.records.lazy.filter({
                ($0.event == .emitted || $0.event == .renewed) && $0.channel == channel && !$0.command.isSilent && $0.began <= start
            }).max(by: { $0.began < $1.began }) else { return nil }
            let woke = trace.records.last {
                $0.event == .woke && $0.thread == write.thread && $0.deadline == write.deadline && $0.time <= write.began
            }
            self.init(deadline: write.deadline, began: write.began, returned: write.time,
                      thread: trace.threadNames[write.thread], woke: woke?.time)
        }
    }

    /// A stretch of time the machine held every thread off the processor, as a probe thread at a
    /// realtime priority above the engine's saw it (a wake-up this late): a stalled emulated
    /// processor, or the kernel busy with what no thread can preempt.
    public struct Stall: Sendable, Hashable {
        /// When the probe was due to wake.
        public var start: MonotonicInstant
        /// How late it woke.
        public var duration: Duration

        /// A stall of `duration` from `start`.
        public init(start: MonotonicInstant, duration: Duration) {
            self.start = start
            self.duration = duration
        }
    }

    /// What the sound devices and the machine went through during a run: what explains a sound
    /// heard off its time or not found, or a haptic that started late.
    public struct Streams: Sendable, Hashable {
        /// The first cue's onset: the report gives the gaps' instants from it.
        public var firstOnset: MonotonicInstant?
        /// The engine's audio output: periods written, underruns recovered (each restarts its
        /// timing), voices placed late or dropped, and jumps of its timing.
        public var playback = AudioOutputStatistics()
        /// Periods read from the capture device.
        public var captureReads = 0
        /// The frames the capture device buffers: how far its reader may fall behind.
        public var captureBufferFrames = 0
        /// Capture overruns recovered (the reader fell a buffer behind; frames were lost).
        public var captureOverruns = 0
        /// Capture reads that timed out (the device restarted; frames were lost).
        public var captureTimeouts = 0
        /// Stretches of time the capture did not deliver (its timeline goes on after each).
        package var captureGaps: [ALSACaptureStream.Gap] = []
        /// What the playback went through while each cue played (from its play to the next cue's),
        /// one line per cue that saw underruns, timing jumps, late or dropped voices: `"3 impact.light:
        /// 2 playback underruns"`. A stalled machine shows here before it shows in a residual.
        public var disturbances: [String] = []
        /// How the machine's stalls were watched (`"SCHED_FIFO 60 every 1 ms"`), `nil` when they
        /// were not.
        public var stallProbe: String?
        /// The stalls the probe saw, in time order (wake-ups more than `StallProbe.threshold` late).
        public var stalls: [Stall] = []

        /// Nothing happened yet.
        public init() {}
    }

    /// Everything a run measured.
    public struct Result: Sendable {
        /// One row per cue whose haptic and sound were both found, in play order.
        public var measurements: [Measurement]
        /// Cues whose haptic or sound was not found (with the reason).
        public var missing: [String]
        /// The ALSA period granted: the granularity of the audio device.
        public var period: Duration
        /// The audio output's latency estimate at the end of the run.
        public var latency: Duration
        /// The haptic device's name and event node.
        public var hapticDevice: String
        /// Where the haptic start times come from.
        public var hapticTiming: String
        /// The profile the engine used for the haptic device.
        public var profile: DeviceProfile
        /// What the sound devices went through.
        public var streams = Streams()

        /// The `fraction` percentile (nearest rank) of |residual|; `nil` without rows.
        public func absoluteResidual(percentile fraction: Double) -> Duration? {
            measurements.map { max($0.residual, .zero - $0.residual) }.sorted().nearestRank(fraction)
        }
    }

    /// The settings.
    public var configuration: Configuration

    /// Creates a test.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Plays `cues` in order, one every `spacing`, and measures each. Throws a clear error when the
    /// loopback card, a sound device or a haptic device is missing.
    public func run(_ cues: [Cue]) throws(SyncLoopbackError) -> Result {
        let configuration = self.configuration
        if (configuration.playbackDevice + configuration.captureDevice).contains("Loopback"),
           access("/proc/asound/Loopback", F_OK) != 0 {
            throw .noLoopbackCard
        }
        let haptic = try SyncHapticDevice(configuration: configuration)
        defer { haptic.close() }
        let format = configuration.format
        let capture: ALSACaptureStream
        do {
            capture = try ALSACaptureStream(device: configuration.captureDevice, sampleRate: format.sampleRate,
                                            periodFrames: format.periodFrames)
        } catch {
            throw .audio(error.description)
        }
        // Closed when the run ends, after its reader has stopped: a second run opens it again.
        defer { capture.close() }
        let recorder: SyncCaptureThread
        do {
            recorder = try SyncCaptureThread(capture: capture)
        } catch {
            throw .audio("capture thread: \(error)")
        }
        defer { recorder.stop() }
        let audio = AudioOutput(sink: ALSAAudioSink(device: configuration.playbackDevice, format: format))
        do {
            try audio.start()
        } catch {
            throw .audio(error.description)
        }
        defer { audio.stop() }
        let engine = HapticEngine(outputs: [haptic.output])
        do {
            try engine.start()
            try engine.attachAudio(audio)
        } catch {
            throw .engine("\(error)")
        }
        defer { engine.stop() }
        // Traced always: a real device's start times come from the trace (a uinput device's from
        // the kernel), and for every device the trace says when the write that started each haptic
        // was due, began and returned — whether a late haptic was the engine's or the device's.
        engine.startTracing()

        var players: [String: HapticPatternPlayer] = [:]
        var naiveVoices: [Cue: [ScheduledVoice]] = [:]
        let rate = audio.streamFormat.sampleRate
        let library = SoundCueLibrary.builtin(outputRate: rate)
        for cue in Set(cues) {
            switch cue {
            case let .feedback(feedback):
                engine.prepare(feedback)
                if let voice = library.voice(for: feedback) {
                    naiveVoices[cue] = [ScheduledVoice(eventIndex: 0, frameOffset: 0, timeOffset: .zero, voice: voice)]
                }
            case let .pattern(path):
                do {
                    let player = try engine.makePlayer(contentsOf: path)
                    player.prepare()
                    players[path] = player
                    let sound = try AudioPatternLoader(outputRate: rate).load(contentsOf: path)
                    naiveVoices[cue] = AudioRenderer(sampleRate: rate).voices(for: sound)
                } catch {
                    throw .pattern("\(error)")
                }
            }
        }

        // The machine's stalls are watched from here: a cue they put off its time says nothing of
        // the engine.
        let probe = try? StallProbe()
        defer { _ = probe?.stop() }

        // Let both streams settle: the playback buffer full, the first timing readings in.
        let settleBy = engine.now + .seconds(3)
        while recorder.reads < 40 || audio.statistics.periods < 40 || audio.latency == .zero {
            guard engine.now < settleBy else {
                throw .noSignal(capture: configuration.captureDevice, captured: recorder.reads, playback: configuration.playbackDevice,
                                played: audio.statistics.periods, latencyKnown: audio.latency != .zero)
            }
            SystemMonotonicClock.sleep(until: engine.now + .milliseconds(10))
        }

        // One unmeasured cue first: the very first trigger of a process pays for cold code paths
        // (page faults, lazily bound symbols) that no later one does.
        if case let .feedback(feedback)? = cues.first {
            _ = engine.play(feedback, withSound: true)
            SystemMonotonicClock.sleep(until: engine.now + configuration.spacing)
        }

        var planned: [(cue: Cue, onset: MonotonicInstant, hapticFrom: MonotonicInstant, soundFrom: MonotonicInstant)] = []
        var missing: [String] = []
        // The first cue gets the same time as every other: prepared 300 ms before its onset, played
        // 100 ms before it. With less, a slow prepare (uploads through the device's own thread on a
        // busy machine) made its play come so late that the start was due at once.
        let first = engine.now + .milliseconds(400)
        // The output's counters as each cue is played, then at the end: what happened while each
        // cue played (an underrun there says the guest's audio thread did not run for a buffer).
        var counters: [AudioOutputStatistics] = []
        // The haptic device's too, when it is an evdev device: an upload on the realtime thread
        // (a level not prepared) is a round trip through the device's driver, on uinput through
        // the sink's own thread.
        let actuator = haptic.output.device as? EvdevActuator
        var actuatorCounters: [EvdevActuatorStatistics?] = []
        for (index, cue) in cues.enumerated() {
            let onset = first + configuration.spacing * index
            // Prepared a moment before, as a game prepares: what was prepared at the start has not
            // been used for longer than the engine's `prepareLifetime` by the later cues, so its
            // effects were let go, and the start would upload its level on the realtime thread
            // (on a uinput device a round trip through the device's own thread).
            SystemMonotonicClock.sleep(until: onset - .milliseconds(300))
            switch cue {
            case let .feedback(feedback): engine.prepare(feedback)
            case let .pattern(path): players[path]?.prepare()
            }
            SystemMonotonicClock.sleep(until: onset - .milliseconds(100))
            counters.append(audio.statistics)
            actuatorCounters.append(actuator?.statistics)
            if configuration.compensated {
                let outcome: PlaybackOutcome.WithSound
                switch cue {
                case let .feedback(feedback): outcome = engine.play(feedback, withSound: true, at: onset)
                case let .pattern(path): outcome = players[path]?.start(at: onset) ?? PlaybackOutcome.WithSound(haptics: .notPlayed(.unsupported), audio: .notPlayed(.noSound))
                }
                guard case let .scheduled(felt) = outcome.haptics, case .scheduled = outcome.audio else {
                    missing.append("\(index + 1) \(cue.name): not played (haptics: \(outcome.haptics), sound: \(outcome.audio))")
                    continue
                }
                let lead = felt - haptic.output.profile.riseTime
                planned.append((cue, felt, lead, felt))
            } else {
                // Naive: start the haptic and write the sound now, each as soon as it can.
                let now = engine.now
                switch cue {
                case let .feedback(feedback): _ = engine.play(feedback)
                case let .pattern(path):
                    if let player = players[path] {
                        player.playsSound = false
                        _ = player.start()
                    }
                }
                _ = audio.schedule(naiveVoices[cue] ?? [], patternStart: now)
                planned.append((cue, now, now, now))
            }
        }
        SystemMonotonicClock.sleep(until: first + configuration.spacing * cues.count + .milliseconds(100))
        counters.append(audio.statistics)
        actuatorCounters.append(actuator?.statistics)
        let stalls = probe?.stop() ?? []
        let latency = audio.latency
        let period = audio.streamFormat.duration(ofFrames: Int64(audio.streamFormat.periodFrames))
        engine.stop()
        audio.stop()
        recorder.stop()
        if let error = recorder.error { throw .audio(error) }
        var streams = Streams()
        streams.firstOnset = planned.first?.onset
        streams.playback = audio.statistics
        streams.captureReads = capture.reads
        streams.captureBufferFrames = capture.bufferFrames
        streams.captureOverruns = capture.overruns
        streams.captureTimeouts = capture.timeouts
        streams.captureGaps = capture.gaps
        if let probe {
            streams.stallProbe = probe.hasRealtimePriority
                ? "SCHED_FIFO \(StallProbe.priority) every \(Self.milliseconds(StallProbe.period)) ms"
                : "no realtime priority granted: every \(Self.milliseconds(StallProbe.period)) ms, beside the engine's threads"
            streams.stalls = stalls
        }
        for (index, cue) in cues.enumerated() {
            let before = counters[index]
            let after = counters[index + 1]
            var events = [(after.underruns - before.underruns, "playback underruns"),
                          (after.timingJumps - before.timingJumps, "timing jumps"),
                          (after.late - before.late, "late voices"), (after.dropped - before.dropped, "dropped voices")]
                .filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }
            if let before = actuatorCounters[index], let after = actuatorCounters[index + 1] {
                let uploads = after.streamingUploads - before.streamingUploads
                if uploads > 0 { events.append("\(uploads) uploads on the realtime thread") }
                let evictions = after.evictions - before.evictions
                if evictions > 0 { events.append("\(evictions) prepared effects evicted") }
            }
            // From the cue's play (100 ms before its onset) to the next cue's.
            let played = first + configuration.spacing * index - .milliseconds(100)
            if let stall = StallProbe.longest(in: stalls, from: played, to: played + configuration.spacing) {
                events.append("machine stalled \(Self.milliseconds(stall.duration)) ms at \(Self.milliseconds(stall.start - played - .milliseconds(100))) ms from the onset")
            }
            if !events.isEmpty { streams.disturbances.append("\(index + 1) \(cue.name): " + events.joined(separator: ", ")) }
        }

        let trace = haptic.trace(engine: engine)
        if let path = configuration.tracePath {
            do {
                try FileDescriptor.writeContents(Array(trace.json().utf8), toFile: path)
            } catch {
                throw .trace(path: path, error.description)
            }
        }
        let starts = haptic.starts(in: trace)
        var measurements: [Measurement] = []
        let window = configuration.spacing / 2
        for (index, plan) in planned.enumerated() {
            let hapticStart = starts.first { $0 >= plan.hapticFrom - .milliseconds(20) && $0 < plan.hapticFrom + window }
            let searched = plan.soundFrom - .milliseconds(40)
            let onsetFrame = capture.onset(from: searched, until: plan.soundFrom + window, threshold: 0.01)
            // Sound that began while the capture lost frames is found where the capture resumed:
            // not a measurement.
            let heardBy = onsetFrame.flatMap { capture.instant(ofFrame: $0) } ?? plan.soundFrom + window
            if let gap = streams.captureGaps.first(where: { $0.start < heardBy && $0.start + max($0.duration, .zero) > searched }) {
                missing.append("\(index + 1) \(plan.cue.name): the capture lost \(Self.milliseconds(gap.duration)) ms "
                    + "from \(Self.milliseconds(gap.start - plan.soundFrom)) ms (frame \(gap.frame))")
                continue
            }
            guard let hapticStart, let onsetFrame, let heard = capture.instant(ofFrame: onsetFrame) else {
                missing.append("\(index + 1) \(plan.cue.name): " + (hapticStart == nil ? "no haptic start found" : "no sound onset found"))
                continue
            }
            var measurement = Measurement(cue: plan.cue, onset: plan.onset, hapticStart: hapticStart,
                                          riseTime: haptic.output.profile.riseTime, heard: heard)
            // The probe's wake-up due just before the haptic's start may be the one held off.
            measurement.hapticStall = StallProbe.longest(in: stalls, from: plan.hapticFrom - StallProbe.period,
                                                         to: hapticStart)?.duration
            measurement.hapticWrite = haptic.write(startingHapticAt: hapticStart, in: trace)
            measurements.append(measurement)
        }
        return Result(measurements: measurements, missing: missing, period: period, latency: latency,
                      hapticDevice: "\(haptic.output.name) (\(haptic.output.path ?? "?"))", hapticTiming: haptic.timing,
                      profile: haptic.output.profile, streams: streams)
    }

    /// `span` in milliseconds, three decimals, as the report prints times.
    package static func milliseconds(_ span: Duration) -> String { JSONLine.number(span.inMilliseconds, digits: 3) }
}
