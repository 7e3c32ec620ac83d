import HapticsPatterns
import HapticsScheduler
import Synchronization
import HapticsSystem

/// Plays impacts of one style: collisions, snaps, landings.
///
/// Call `prepare()` shortly before the impact (a prepared generator plays sooner on real devices);
/// then `impactOccurred(intensity:)`. Safe from any thread; never blocks.
///
/// Intensities play in steps of `HapticEngine.intensityStep` (1/16), and so does the engine gain
/// on devices without a gain of their own, so a prepared impact is one `write()` on an evdev
/// device at any intensity: `prepare()` uploads the level of the intensity last played (1 before
/// the first play) and the levels of the other 15 intensities while the device has free slots
/// (on an ff-memless pad with nothing else prepared, all but the farthest from the last one).
public final class ImpactFeedbackGenerator: Sendable {
    /// The impact style.
    public let style: ImpactStyle
    /// The engine that plays it.
    public let engine: HapticEngine
    /// The devices it plays and prepares on (all by default).
    public let devices: DeviceSelection
    /// The engine's entry, which lives as long as the engine this generator holds.
    private let entry: EntryReference?

    /// Whether each play also plays the item's sound cue, felt and heard together (default off).
    /// The cue is played at the impact's intensity (linear amplitude).
    /// The outcome is the haptic's; `HapticEngine.play(_:withSound:at:)` reports both halves.
    public var playsSound: Bool {
        get { sound.load(ordering: .relaxed) }
        set { sound.store(newValue, ordering: .relaxed) }
    }
    private let sound = Atomic<Bool>(false)

    /// Creates a generator for `style` on `engine` (by default the shared one, started on first
    /// use), playing on `devices` (all by default: one generator per player's pad for local
    /// multiplayer).
    public init(style: ImpactStyle = .medium, engine: HapticEngine = .shared, devices: DeviceSelection = .all) {
        self.style = style
        self.engine = engine
        self.devices = devices
        self.entry = engine.vocabularyEntry(for: .impact(style)).map(EntryReference.init)
    }

    /// Gets ready to play within the next few seconds, at any intensity (see the type's notes on
    /// steps and slots). Control side: may block on device uploads.
    public func prepare() {
        entry?.with { engine.prepare($0, on: devices) }
    }

    /// Whether a preparation is still holding.
    public var isPrepared: Bool { entry?.with(engine.isPrepared) ?? false }

    /// Plays the impact now, at `intensity`: clamped to 0…1, as the platform guidelines' impacts
    /// are, and rounded to the nearest step of `HapticEngine.intensityStep` (0.7 plays as 0.6875);
    /// a NaN or infinite intensity is refused with `.notPlayed(.invalidIntensity)`.
    @discardableResult
    public func impactOccurred(intensity: Double = 1.0) -> PlaybackOutcome {
        guard let entry else { return .notPlayed(.unsupported) }
        return entry.with { engine.play($0, intensity: intensity, at: nil, withSound: playsSound, on: devices) }.haptics
    }

    /// Plays the impact so that it is felt at `feltAt` (e.g. when a sound becomes audible), with
    /// `intensity` as `impactOccurred(intensity:)` takes it. A `feltAt` more than
    /// `HapticEngine.schedulingHorizon` (one hour) ahead is refused with `.notPlayed(.onsetOutOfRange)`.
    @discardableResult
    public func impactOccurred(intensity: Double = 1.0, feltAt: MonotonicInstant) -> PlaybackOutcome {
        guard let entry else { return .notPlayed(.unsupported) }
        return entry.with { engine.play($0, intensity: intensity, at: feltAt, withSound: playsSound, on: devices) }.haptics
    }
}

/// Plays the outcome of a task: success, warning or error.
public final class NotificationFeedbackGenerator: Sendable {
    /// The engine that plays it.
    public let engine: HapticEngine
    /// The devices it plays and prepares on (all by default).
    public let devices: DeviceSelection
    private let entries: [EntryReference?]

    /// Whether each play also plays the item's sound cue, felt and heard together (default off).
    /// The outcome is the haptic's; `HapticEngine.play(_:withSound:at:)` reports both halves.
    public var playsSound: Bool {
        get { sound.load(ordering: .relaxed) }
        set { sound.store(newValue, ordering: .relaxed) }
    }
    private let sound = Atomic<Bool>(false)

    /// Creates a generator on `engine` (by default the shared one, started on first use), playing
    /// on `devices` (all by default).
    public init(engine: HapticEngine = .shared, devices: DeviceSelection = .all) {
        self.engine = engine
        self.devices = devices
        self.entries = NotificationType.allCases.map { engine.vocabularyEntry(for: .notification($0)).map(EntryReference.init) }
    }

    /// Gets every notification type ready for the next few seconds.
    public func prepare() {
        for case let entry? in entries { entry.with { engine.prepare($0, on: devices) } }
    }

    /// Plays the notification of `type` now.
    @discardableResult
    public func notificationOccurred(_ type: NotificationType) -> PlaybackOutcome {
        guard let entry = entries[index(of: type)] else { return .notPlayed(.unsupported) }
        return entry.with { engine.play($0, intensity: 1, at: nil, withSound: playsSound, on: devices) }.haptics
    }

    private func index(of type: NotificationType) -> Int {
        switch type {
        case .success: return 0
        case .warning: return 1
        case .error: return 2
        }
    }
}

/// Plays a selection change: a detent while scrolling a picker, a tick of a slider.
public final class SelectionFeedbackGenerator: Sendable {
    /// The engine that plays it.
    public let engine: HapticEngine
    /// The devices it plays and prepares on (all by default).
    public let devices: DeviceSelection
    /// The engine's entry, which lives as long as the engine this generator holds.
    private let entry: EntryReference?

    /// Whether each play also plays the item's sound cue, felt and heard together (default off).
    /// The outcome is the haptic's; `HapticEngine.play(_:withSound:at:)` reports both halves.
    public var playsSound: Bool {
        get { sound.load(ordering: .relaxed) }
        set { sound.store(newValue, ordering: .relaxed) }
    }
    private let sound = Atomic<Bool>(false)

    /// Creates a generator on `engine` (by default the shared one, started on first use), playing
    /// on `devices` (all by default).
    public init(engine: HapticEngine = .shared, devices: DeviceSelection = .all) {
        self.engine = engine
        self.devices = devices
        self.entry = engine.vocabularyEntry(for: .selection).map(EntryReference.init)
    }

    /// Gets ready to play within the next few seconds.
    public func prepare() {
        entry?.with { engine.prepare($0, on: devices) }
    }

    /// Plays a selection tick now.
    @discardableResult
    public func selectionChanged() -> PlaybackOutcome {
        guard let entry else { return .notPlayed(.unsupported) }
        return entry.with { engine.play($0, intensity: 1, at: nil, withSound: playsSound, on: devices) }.haptics
    }
}

/// A vocabulary entry of the engine a generator holds: it lives as long as the generator, which
/// plays it through this reference with no retain and release per play (an `unowned(unsafe)`
/// reference still takes a strong one for each call).
struct EntryReference: Sendable {
    private let entry: Unmanaged<VocabularyEntry>

    init(_ entry: VocabularyEntry) { self.entry = .passUnretained(entry) }

    @inline(__always)
    func with<Result>(_ body: (VocabularyEntry) -> Result) -> Result { entry._withUnsafeGuaranteedRef(body) }
}
