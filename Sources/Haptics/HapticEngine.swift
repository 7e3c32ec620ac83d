import HapticsDevices
import HapticsPatterns
import HapticsRendering
import HapticsScheduler
import Synchronization

/// The haptic engine: owns the output devices and the realtime scheduler, prepares programs, and
/// plays feedback and patterns on time.
///
/// Create one per application. Every public method may be called from any thread; the play calls
/// of prepared generators never block and never allocate.
public final class HapticEngine: Sendable {
    /// Settings fixed at creation.
    public struct Configuration: Sendable {
        /// What happens when a feedback starts while another plays on the same device.
        public var overlapPolicy: OverlapPolicy
        /// How long a `prepare()` stays valid without a play, in nanoseconds (the guidelines: a few
        /// seconds); then the prepared resources are released.
        public var prepareLifetime: Int64
        /// Capacities of the scheduler.
        public var scheduler: SchedulerConfiguration

        /// Creates a configuration.
        public init(
            overlapPolicy: OverlapPolicy = .replace,
            prepareLifetime: Int64 = 5_000_000_000,
            scheduler: SchedulerConfiguration = SchedulerConfiguration()
        ) {
            self.overlapPolicy = overlapPolicy
            self.prepareLifetime = prepareLifetime
            self.scheduler = scheduler
        }
    }

    /// One output the engine plays on.
    public struct Output: Sendable {
        /// The device.
        public let device: any ActuatorOutput
        /// What the device can do.
        public let profile: DeviceProfile
        /// Creates an output.
        public init(device: any ActuatorOutput, profile: DeviceProfile) {
            self.device = device
            self.profile = profile
        }
        /// A simulated device of the given profile (records everything it is told).
        public static func simulated(_ profile: DeviceProfile = .simulated) -> Output {
            Output(device: SimulatedDevice(profile: profile), profile: profile)
        }
    }

    let scheduler: any SchedulerControl
    let configuration: Configuration
    /// The outputs and their scheduler channels; fixed at creation.
    let channels: [(output: Output, channel: ChannelID)]
    private let enabled = Atomic<Bool>(true)
    private let applicationActive = Atomic<Bool>(true)
    private let running = Atomic<Bool>(false)
    private let gainBits = Atomic<UInt64>(Double(1).bitPattern)
    private let realtime = Atomic<Bool>(false)
    /// The vocabulary, rendered for every output and loaded once at creation, so that a prepared
    /// feedback plays with two lock-free submissions and nothing else. Immutable after `init`.
    let vocabulary: [VocabularyEntry]

    /// Creates an engine on the system's monotonic clock with the given outputs (none: every play
    /// says `.noDevice`). Call `start()` before playing.
    public convenience init(outputs: [Output], configuration: Configuration = Configuration()) {
        self.init(clock: SystemMonotonicClock(), outputs: outputs, configuration: configuration)
    }

    /// Creates an engine on any clock; with a `ManualClock`, drive it with `process()` (tests).
    public init<Clock: HapticClock>(clock: Clock, outputs: [Output], configuration: Configuration = Configuration()) {
        let scheduler = Scheduler(clock: clock, configuration: configuration.scheduler)
        self.scheduler = scheduler
        self.configuration = configuration
        let channels = outputs.map { output in
            (output: output, channel: scheduler.addChannel(output: output.device, profile: output.profile, policy: configuration.overlapPolicy))
        }
        self.channels = channels
        self.vocabulary = Feedback.vocabulary.map { feedback in
            VocabularyEntry(feedback: feedback, loading: feedback.canonicalPattern, on: channels, into: scheduler)
        }
    }

    deinit {
        // Nothing keeps rumbling: an engine that goes away leaves every device silent.
        stop()
    }

    // MARK: Switches

    /// Global haptics switch (the user's setting). Turning it off stops what is playing.
    public var isEnabled: Bool {
        get { enabled.load(ordering: .acquiring) }
        set {
            enabled.store(newValue, ordering: .releasing)
            if !newValue { silenceAll() }
        }
    }

    /// Global gain, 0…1, applied to every feedback's intensity. 0 mutes.
    public var gain: Double {
        get { Double(bitPattern: gainBits.load(ordering: .acquiring)) }
        set { gainBits.store(min(max(newValue, 0), 1).bitPattern, ordering: .releasing) }
    }

    /// Whether the application is active; feedback only plays while it is. Becoming inactive stops
    /// what is playing.
    public var isApplicationActive: Bool {
        get { applicationActive.load(ordering: .acquiring) }
        set {
            applicationActive.store(newValue, ordering: .releasing)
            if !newValue { silenceAll() }
        }
    }

    /// Whether the engine is started.
    public var isRunning: Bool { running.load(ordering: .acquiring) }

    /// The engine's clock, now (`CLOCK_MONOTONIC` for a production engine).
    public var now: MonotonicInstant { scheduler.currentTime() }

    /// The profiles of the outputs, in order.
    public var profiles: [DeviceProfile] { channels.map(\.output.profile) }

    // MARK: Lifecycle

    /// Starts the realtime thread. Throws when the thread cannot be created.
    public func start() throws {
        guard !running.load(ordering: .acquiring) else { return }
        try scheduler.startRealtime()
        realtime.store(true, ordering: .releasing)
        running.store(true, ordering: .releasing)
    }

    /// Marks the engine running without a realtime thread: the caller drives it with `process()`
    /// (tests on a manual clock, or a host loop that owns timing itself).
    public func startManuallyDriven() {
        running.store(true, ordering: .releasing)
    }

    /// Stops everything: every device is sent to silence, then the realtime thread ends.
    public func stop() {
        guard running.exchange(false, ordering: .acquiringAndReleasing) else { return }
        if realtime.exchange(false, ordering: .acquiringAndReleasing) {
            // The realtime thread silences every channel before it ends.
            scheduler.stopRealtime()
        } else {
            _ = scheduler.stopAll(at: scheduler.currentTime())
            _ = scheduler.process()
        }
    }

    /// Processes everything due now and returns the next deadline. Only for engines started with
    /// `startManuallyDriven()`: with a realtime thread running, that thread is the only consumer.
    @discardableResult
    public func process() -> MonotonicInstant? {
        precondition(!realtime.load(ordering: .acquiring), "process() is for manually driven engines; the realtime thread drives this one")
        return scheduler.process()
    }

    /// Why a play requested now would not play, or `nil` when it would.
    public func silenceReason() -> SilenceReason? {
        if !isEnabled { return .disabled }
        if gain == 0 { return .muted }
        if !isApplicationActive { return .applicationInactive }
        if channels.isEmpty { return .noDevice }
        if !isRunning { return .engineStopped }
        return nil
    }

    private func silenceAll() {
        _ = scheduler.stopAll(at: scheduler.currentTime())
    }
}
