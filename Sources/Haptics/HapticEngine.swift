import Dispatch
import HapticsAudio
import HapticsDevices
import HapticsPatterns
import HapticsRendering
import HapticsScheduler
import Synchronization
import HapticsSystem

/// The haptic engine: owns the output devices and the realtime scheduler, prepares programs, and
/// plays feedback and patterns on time.
///
/// Create one per application. Devices can be given at creation and added later (`addOutput`,
/// or hotplug with `watchForDevices`); a device that is lost (unplugged) is removed and reported
/// as an `Event`, and the others play on. `devices` lists them as `HapticDevice` values a game
/// holds to play on one pad (`play(_:on:)`) and to set its gain, switch or profile; a pad plugged
/// in again comes back as the same device. Every public method may be called from any thread; the
/// play calls of prepared generators never block and never allocate.
public final class HapticEngine: Sendable {
    /// Settings fixed at creation.
    public struct Configuration: Sendable {
        /// What happens when a feedback starts while another plays on the same device.
        public var overlapPolicy: OverlapPolicy
        /// How long a `prepare()` stays valid without a play (the guidelines: a few seconds); then
        /// the prepared resources are released. 0…1 h; clamped into it.
        public var prepareLifetime: Duration
        /// How often a started engine's housekeeping runs while something needs watching (pattern
        /// players, tracing, players kept for feedbackd events, sound attached), 1 ms…10 s; clamped
        /// into it. Off the realtime thread. An idle engine's housekeeping does not run on an
        /// interval: it wakes for the expiry of what is prepared, and otherwise sleeps.
        public var housekeepingInterval: Duration
        /// Capacities of the scheduler, clamped into their ranges (`SchedulerConfiguration.clamped`).
        /// `maximumChannels` bounds how many devices can play at once: a lost device's channel
        /// serves the next device (the same pad plugged in again first) once the scheduler has let
        /// go of it, so reconnects are unlimited.
        public var scheduler: SchedulerConfiguration
        /// A folder with the app's own sound cues (`<item>.wav` named like `Patterns/`, e.g.
        /// `impact-heavy.wav`), read by `attachAudio`; `nil` uses the cues built into the library.
        public var soundCueFolder: String?
        /// The most memory one pattern's sound may hold, in bytes: its waveforms decoded at the
        /// output rate and what its voices keep (`AudioMemoryBudget.patternLimit`, 32 MiB). A
        /// pattern file over it is refused by `makePlayer(contentsOf:)` with a located error.
        public var soundBudgetPerPattern: Int
        /// The most memory the sound of every pattern player alive and the sound cues may hold
        /// together, in bytes (`AudioMemoryBudget.engineLimit`, 128 MiB). A pattern file that does
        /// not fit what is left is refused by `makePlayer(contentsOf:)`; releasing a player gives
        /// its share back.
        public var soundBudget: Int
        /// Whether adaptive trigger effects stay while haptics are switched off (`isEnabled`
        /// false): a trigger's resistance is also how a control feels, which some players keep
        /// when they turn vibration off. Off by default: switching haptics off sets the triggers
        /// off too.
        public var keepsTriggersWhenDisabled: Bool
        /// Whether the engine rehearses on each evdev device before a game can play on it — in
        /// `start()`, and as a device is added to the running engine (a pad plugged in later) —
        /// so that a game's first play is as quick as the next ones (on by default). While a
        /// device added later rehearses, the game's plays pass it by, as if it came a few
        /// milliseconds later. The rehearsal runs the code of a play of the
        /// heavy impact, from the call to the `write()` and its stop, and of a pattern player's
        /// start and stop, with events the kernel drops before any driver or device owner sees
        /// them (value -1): nothing is felt, nothing is sent to the device. The impact is played
        /// prepared, as a game plays what it prepared: its level at intensity 1 is uploaded for
        /// the rehearsal and erased after it (kept on a device that held preparations already,
        /// where it expires unused like any other), which a device's owner can see. A process
        /// runs code slowest the first time (its pages are mapped, its symbols bound; under an
        /// emulator, translated): without it the first play of a process takes several times as
        /// long as the next ones.
        public var rehearsesDevices: Bool

        /// Creates a configuration.
        public init(
            overlapPolicy: OverlapPolicy = .replace,
            prepareLifetime: Duration = .seconds(5),
            housekeepingInterval: Duration = .milliseconds(50),
            scheduler: SchedulerConfiguration = SchedulerConfiguration(),
            soundCueFolder: String? = nil,
            soundBudgetPerPattern: Int = AudioMemoryBudget.patternLimit,
            soundBudget: Int = AudioMemoryBudget.engineLimit,
            keepsTriggersWhenDisabled: Bool = false,
            rehearsesDevices: Bool = true
        ) {
            precondition(soundBudgetPerPattern >= 0 && soundBudget >= 0, "sound budgets cannot be negative")
            self.overlapPolicy = overlapPolicy
            self.prepareLifetime = prepareLifetime
            self.housekeepingInterval = housekeepingInterval
            self.scheduler = scheduler
            self.soundCueFolder = soundCueFolder
            self.soundBudgetPerPattern = soundBudgetPerPattern
            self.soundBudget = soundBudget
            self.keepsTriggersWhenDisabled = keepsTriggersWhenDisabled
            self.rehearsesDevices = rehearsesDevices
        }

        /// The range of `prepareLifetime`: 0…1 h.
        public static let prepareLifetimeRange: ClosedRange<Duration> = .zero ... .seconds(3_600)
        /// The range of `housekeepingInterval`: 1 ms…10 s.
        public static let housekeepingIntervalRange: ClosedRange<Duration> = .milliseconds(1) ... .seconds(10)

        /// This configuration with every value clamped into its range: what an engine created with
        /// it uses.
        public var clamped: Configuration {
            var configuration = self
            configuration.prepareLifetime = min(max(prepareLifetime, Self.prepareLifetimeRange.lowerBound),
                                                Self.prepareLifetimeRange.upperBound)
            configuration.housekeepingInterval = min(max(housekeepingInterval, Self.housekeepingIntervalRange.lowerBound),
                                                     Self.housekeepingIntervalRange.upperBound)
            configuration.scheduler = scheduler.clamped
            return configuration
        }
    }

    /// How far ahead an onset may be asked for (a play's `feltAt`, a pattern's start, a sound's
    /// `audibleAt` or latency): one hour. A later one is refused with `.onsetOutOfRange` and
    /// nothing is scheduled; an earlier one than the devices can make moves to the earliest they
    /// can, as always. One hour is far beyond any sound a game schedules, and keeps every instant
    /// the engine hands the scheduler and the audio output far from overflowing.
    public static let schedulingHorizon: Duration = .nanoseconds(schedulingHorizonNanoseconds)
    /// `schedulingHorizon` in nanoseconds, for the play path: a constant, not a lazily made global
    /// (whose every read is a call into the runtime's once-check on the way to the write).
    @inline(__always) static var schedulingHorizonNanoseconds: Int64 { 3_600 * 1_000_000_000 }

    /// The longest pattern `makePlayer(pattern:)` accepts: every event, parameter and curve must
    /// end within one hour (`Renderer.maximumPatternDuration`). Decoded files are held to 600 s.
    public static let maximumPatternDuration: Duration = Renderer.maximumPatternDuration

    /// One output the engine plays on.
    public struct Output: Sendable {
        /// The device.
        public let device: any Actuator
        /// What the device can do.
        public let profile: DeviceProfile
        /// A name for people (`Sony Interactive Entertainment Wireless Controller`).
        public let name: String
        /// The event node (`/dev/input/event5`), or `nil` for devices without one.
        public let path: String?

        /// What the event node said about itself when it was opened (identity, location), for
        /// outputs on an evdev node: `HapticDevice` identities and re-plug matching come from it.
        public let eventNode: EvdevDeviceInfo?
        /// Whether this is the simulated device an engine falls back to when it finds none.
        let isFallback: Bool

        /// Creates an output; the name defaults to the profile's display name.
        public init(device: any Actuator, profile: DeviceProfile, name: String? = nil, path: String? = nil,
                    eventNode: EvdevDeviceInfo? = nil) {
            self.init(device: device, profile: profile, name: name, path: path, eventNode: eventNode, isFallback: false)
        }

        init(device: any Actuator, profile: DeviceProfile, name: String?, path: String?, eventNode: EvdevDeviceInfo?, isFallback: Bool) {
            self.device = device
            self.profile = profile
            self.name = name ?? profile.displayName
            self.path = path ?? eventNode?.path
            self.eventNode = eventNode
            self.isFallback = isFallback
        }

        /// A simulated device of the given profile (records everything it is told).
        public static func simulated(_ profile: DeviceProfile = .simulated) -> Output {
            Output(device: SimulatedDevice(profile: profile), profile: profile,
                   name: profile.name == DeviceProfile.simulated.name ? "simulated" : "simulated \(profile.name)")
        }

        /// The simulated device an engine falls back to: plays on it say `.noRealDevice`.
        static func fallback() -> Output {
            let simulated = Output.simulated()
            return Output(device: simulated.device, profile: simulated.profile, name: simulated.name, path: nil,
                          eventNode: nil, isFallback: true)
        }
    }

    let scheduler: Scheduler
    let configuration: Configuration
    /// `configuration.prepareLifetime` in nanoseconds, converted once (a play extends a
    /// preparation by it, and `Duration` arithmetic is not free on that path).
    let prepareLifetimeNanoseconds: Int64
    /// Which channels are live, for lock-free readers (plays, pattern starts).
    let roster: ChannelRoster
    /// The control side's devices (live ones only), under a lock that plays never take.
    let channelDevices = OrderedMutex<[EngineDevice]>([])
    /// Every device the engine has seen (live, unavailable, lost) and what each channel serves.
    /// Taken after `channelDevices` when both are needed, never the other way round.
    let book = OrderedMutex<DeviceBook>(DeviceBook())
    let eventHub = EventHub()
    let background = OrderedMutex<EngineBackground>(EngineBackground())
    private let enabled = Atomic<Bool>(true)
    private let applicationActive = Atomic<Bool>(true)
    private let running = Atomic<Bool>(false)
    /// One rehearsal at a time: `start()`'s, or a pad's added to the running engine.
    let rehearsals = OrderedMutex<Void>(())
    /// Where housekeeping's runs are asked for: by the control side, and by the scheduler for each
    /// player's ending (whose completion housekeeping delivers). Kept for the engine's life; the
    /// housekeeping thread serving it is started and stopped with the engine.
    let housekeepingRequests = RunRequests()
    private let gainBits = Atomic<UInt64>(Double(1).bitPattern)
    let realtime = Atomic<Bool>(false)
    /// `motorLevelTimeout` in nanoseconds.
    let motorLevelTimeoutNanoseconds = Atomic<Int64>(HapticEngine.defaultMotorLevelTimeout.nanoseconds)
    /// The vocabulary: one entry per item, each with a player per channel, loaded when a device
    /// is added, so that a prepared feedback plays with two lock-free submissions and nothing else.
    let vocabulary: [VocabularyEntry]
    /// The audio output and the sound cues, once attached: set once, read lock-free by plays.
    let audioState = AtomicLazyReference<EngineAudio>()
    let audioMuted = Atomic<Bool>(false)
    /// The pattern players: housekeeping queues their sound's loop passes ahead and delivers their
    /// completions; a device added joins the ones playing.
    let patternPlayers = PlayerRegistry()
    /// What the sound of the players and the cues holds, against `Configuration.soundBudget`.
    let soundMemory: SoundMemory
    /// The players of fire-and-forget plays (feedbackd events), kept until they end.
    let keptPlayers = KeptPlayers()
    /// What tracing collected (`startTracing()`), drained from the scheduler at housekeeping.
    let traceLog = OrderedMutex<TraceLog>(TraceLog())
    /// The adaptive triggers of the devices that have had an effect set, by device.
    let triggers: EngineTriggers
    /// The voice coils of the pads that play patterns as HD haptics.
    let hdHaptics = EngineHDHaptics()

    /// Creates an engine on the system's monotonic clock with the given outputs (none: every play
    /// says `.noDevice` until one is added). Call `start()` before playing.
    public convenience init(outputs: [Output], configuration: Configuration = Configuration()) {
        self.init(clock: SystemMonotonicClock(), outputs: outputs, configuration: configuration)
    }

    /// Creates an engine on any clock; with a `ManualClock`, drive it with `process()` (tests).
    /// Configuration values outside their ranges are clamped (`Configuration.clamped`). Outputs
    /// beyond `configuration.scheduler.maximumChannels`, and outputs whose profile is invalid
    /// (`DeviceProfile.validate()`; `addOutput` says why), are left out.
    public init<Clock: HapticClock>(clock: Clock, outputs: [Output], configuration requested: Configuration = Configuration()) {
        let configuration = requested.clamped
        scheduler = Scheduler(clock: clock, configuration: configuration.scheduler,
                              endingRequests: housekeepingRequests)
        self.configuration = configuration
        prepareLifetimeNanoseconds = configuration.prepareLifetime.nanoseconds
        soundMemory = SoundMemory(limit: configuration.soundBudget)
        // A trigger's writer wakes for its effects' instants just below the realtime thread, so
        // that a trigger keeps in step with the haptics on a busy machine and never delays them.
        triggers = EngineTriggers(writerPriority: max(1, configuration.scheduler.realtimePriority - 1))
        roster = ChannelRoster(capacity: configuration.scheduler.maximumChannels)
        vocabulary = Feedback.vocabulary.enumerated().map {
            VocabularyEntry(feedback: $1, index: $0, channelCapacity: configuration.scheduler.maximumChannels)
        }
        for output in outputs { _ = try? install(output) }
    }

    /// Creates an engine as `init(clock:outputs:configuration:)` does, and lists `unavailable`
    /// (event nodes found but not openable) among its devices; their `.deviceUnavailable` events,
    /// and `.fallbackToSimulatedDevice` when an output is the fallback, wait for the first listener.
    convenience init<Clock: HapticClock>(clock: Clock, outputs: [Output], unavailable: [EvdevDeviceInfo], configuration: Configuration) {
        self.init(clock: clock, outputs: outputs, configuration: configuration)
        var events: [Event] = unavailable.compactMap(recordUnavailable)
        if outputs.contains(where: \.isFallback) { events.append(.fallbackToSimulatedDevice) }
        eventHub.keepUntilHeard(events)
    }

    deinit {
        // Nothing keeps rumbling: an engine that goes away leaves every device silent.
        stop()
        eventHub.finish()
    }

    // MARK: Switches

    /// Global haptics switch (the user's setting). Turning it off stops what is playing on the
    /// devices. Sound has its own switch, `isAudioMuted`: with haptics off, cues still play and
    /// sound already scheduled is not cancelled — someone who turns vibration off still wants to
    /// hear the app.
    public var isEnabled: Bool {
        get { enabled.load(ordering: .acquiring) }
        set {
            enabled.store(newValue, ordering: .releasing)
            if !newValue {
                silenceAll()
                if !configuration.keepsTriggersWhenDisabled { triggers.resetAll() }
            }
        }
    }

    /// Global gain, 0…1. 0 mutes. Devices with a hardware gain (evdev `FF_GAIN`) get it set on the
    /// device, so what was prepared stays prepared; on the others it scales every intensity, in
    /// steps of `intensityStep` for feedback (see there), and what is prepared now is prepared again
    /// at the new gain. A device's own gain (`setGain(_:for:)`) multiplies it. Setting it is a
    /// control-side call (it may write to devices and upload).
    ///
    /// Values below 0 are 0 and above 1 are 1 (±infinity too); NaN is ignored and the gain keeps
    /// its value — a broken slider neither mutes the user nor plays at full strength.
    public var gain: Double {
        get { Double(bitPattern: gainBits.load(ordering: .acquiring)) }
        set {
            guard !newValue.isNaN else { return }
            let clamped = min(max(newValue, 0), 1)
            gainBits.store(clamped.bitPattern, ordering: .releasing)
            applyTriggerSettings()
            applyVoiceCoilGains()
            applyHardwareGains()
            // Feedback levels scaled in software changed: prepared plays stay one write.
            prepareCurrentPreparations { $0.hardwareGain == nil }
        }
    }

    /// Whether the application is active; feedback only plays while it is. Becoming inactive stops
    /// what is playing, haptics and sound (every voice on the attached audio output fades out).
    public var isApplicationActive: Bool {
        get { applicationActive.load(ordering: .acquiring) }
        set {
            applicationActive.store(newValue, ordering: .releasing)
            if !newValue {
                silenceAll()
                silenceSound()
                triggers.resetAll()
            }
        }
    }

    /// Whether the engine is started.
    public var isRunning: Bool { running.load(ordering: .acquiring) }

    /// The engine's clock, now (`CLOCK_MONOTONIC` for a production engine).
    public var now: MonotonicInstant { scheduler.currentTime() }

    /// The devices the engine plays on now, in the order they were added.
    public var outputs: [Output] { channelDevices.withLock { $0.map(\.output) } }

    /// The profiles of the outputs, in order.
    public var profiles: [DeviceProfile] { outputs.map(\.profile) }

    // MARK: Lifecycle

    /// Starts the realtime thread and the housekeeping timer (lost devices, expired
    /// preparations). Throws when the thread cannot be created.
    public func start() throws {
        guard !running.load(ordering: .acquiring) else { return }
        // The realtime thread sleeps on CLOCK_MONOTONIC: an engine on another clock is driven with
        // `process()`.
        guard scheduler.readsSystemClock else { throw EngineError.clockNotRealtime }
        try scheduler.startRealtimeThread()
        realtime.store(true, ordering: .releasing)
        triggers.open()
        hdHaptics.open()
        // Before the engine runs: no play of the game's can reach a device while it rehearses.
        if configuration.rehearsesDevices { rehearse() }
        running.store(true, ordering: .releasing)
        startHousekeeping()
    }

    /// Marks the engine running without a realtime thread: the caller drives it with `process()`
    /// and `performHousekeeping()` (tests on a manual clock, or a host loop that owns timing itself).
    public func startManuallyDriven() {
        triggers.open()
        hdHaptics.open()
        running.store(true, ordering: .releasing)
    }

    /// Stops everything: hotplug watching and housekeeping end, every device is sent to silence,
    /// then the realtime thread ends. Every voice on the attached audio output is cancelled now
    /// (fading out); the output itself keeps running — the app stops it. The players of
    /// feedbackd events played fire-and-forget are let go.
    public func stop() {
        stopBackgroundWork()
        // Trigger effects end with the engine, started or not (they are set without a start).
        triggers.closeAll()
        hdHaptics.closeAll()
        guard running.exchange(false, ordering: .acquiringAndReleasing) else { return }
        silenceSound()
        if realtime.exchange(false, ordering: .acquiringAndReleasing) {
            // The realtime thread silences every channel before it ends.
            scheduler.stopRealtimeThread()
        } else {
            _ = scheduler.stopAll(at: scheduler.currentTime())
            _ = scheduler.process()
        }
        // Housekeeping has ended: the players stopped here hear of it now.
        deliverPlayerCompletions()
        // What fire-and-forget plays were keeping has been silenced: nothing to keep it for.
        keptPlayers.releaseAll()
    }

    /// Processes everything due now and returns the next deadline. Only for engines started with
    /// `startManuallyDriven()`: with a realtime thread running, that thread is the only consumer.
    @discardableResult
    public func process() -> MonotonicInstant? {
        precondition(!realtime.load(ordering: .acquiring), "process() is for manually driven engines; the realtime thread drives this one")
        return scheduler.process()
    }

    /// Blocks the calling thread until everything due at or before `instant` has gone to the
    /// devices: until a pass of the realtime thread that began at or after `instant` has ended
    /// (asked for, so an idle thread runs one), at most until `timeout` after `instant`. Returns
    /// whether it got there; `false` at once without a realtime thread (an engine not started,
    /// stopped, or manually driven: its `process()` caller decides what is sent). For a tool or a
    /// test that must see a play's last command go out before it stops the engine — `stop()`
    /// silences the devices instead of sending what is still due — not for a game.
    public func waitUntilSent(through instant: MonotonicInstant, timeout: Duration = .seconds(1)) -> Bool {
        guard realtime.load(ordering: .acquiring) else { return false }
        SystemMonotonicClock.sleep(until: instant)
        return awaitPass(scheduler.processingMark(), until: instant + timeout)
    }

    /// Asks for processing passes until one has passed `mark` (a parked realtime thread runs none by
    /// itself), every 500 µs, until `limit` or while no realtime thread runs: whether it was passed.
    func awaitPass(_ mark: ProcessingMark, until limit: MonotonicInstant) -> Bool {
        while !scheduler.hasPassed(mark) {
            guard realtime.load(ordering: .acquiring), scheduler.currentTime() < limit else { return scheduler.hasPassed(mark) }
            scheduler.requestProcessingPass()
            SystemMonotonicClock.sleep(until: scheduler.currentTime() + .microseconds(500))
        }
        return true
    }

    /// Why a play requested now would not play, or `nil` when it would.
    public func silenceReason() -> SilenceReason? {
        if !isEnabled { return .disabled }
        if gain == 0 { return .muted }
        if !isApplicationActive { return .applicationInactive }
        if roster.liveCount == 0 && !roster.isRehearsingOnThisThread { return .noDevice }
        if !isRunning && !roster.isRehearsingOnThisThread { return .engineStopped }
        return nil
    }

    /// Why a play on `devices` requested now would not play, or `nil` when it would: the engine's
    /// reasons first, then `.noDevice` when none of them is live, `.disabled` when every live one
    /// is switched off (`setEnabled(_:for:)`). Lock-free.
    public func silenceReason(on devices: DeviceSelection) -> SilenceReason? {
        if let reason = silenceReason() { return reason }
        if devices.isAll { return nil }
        var live = false
        for channel in 0..<roster.upperBound where roster.admits(roster.snapshot(channel)) && devices.contains(roster.deviceID(channel)) {
            if roster.isEnabled(channel) { return nil }
            live = true
        }
        return live ? .disabled : .noDevice
    }

    private func silenceAll() {
        _ = scheduler.stopAll(at: scheduler.currentTime())
        hdHaptics.stopAll()
    }

    /// Cancels every voice on the attached audio output from now: the output is the engine's, so
    /// what the app scheduled on it directly goes silent too.
    private func silenceSound() {
        let now = scheduler.currentTime()
        guard audioState.load()?.output.cancelAll(at: now) == true else { return }
        withdrawAudible(from: now) { _ in true }
    }
}
