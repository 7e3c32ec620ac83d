/// One feedback of a feedbackd theme: what one event does in one profile section.
///
/// Times are whole milliseconds and magnitudes 0…1, as the theme file holds them after the
/// leniencies of `FeedbackdTheme` (an integer magnitude on feedbackd's old 0…65535 scale is
/// already divided by 65535 here).
public struct FeedbackdFeedback: Sendable, Hashable {
    /// What the feedback does.
    public enum Kind: Sendable, Hashable {
        /// `VibraRumble`: `count` rumbles with `pause` between them, `duration` in all.
        case rumble(FeedbackdRumble)
        /// `VibraPeriodic`: one vibration for `duration`, fading in from `fadeInLevel`.
        case periodic(FeedbackdPeriodic)
        /// `VibraPattern`: vibration steps of a magnitude for a duration each, one after the other.
        case pattern(FeedbackdVibraPattern)
        /// `Sound`: a sound of the XDG sound theme, by its sound name (`effect`).
        case sound(FeedbackdSound)
        /// `Led`: an LED blinking in a color; not haptic.
        case led(FeedbackdLED)
        /// `Dummy`: does nothing for the event's length; not haptic.
        case dummy(durationMilliseconds: Int?)
    }

    /// The event it answers (`button-pressed`).
    public var event: String
    /// What it does.
    public var kind: Kind
    /// The profile section it is in.
    public var section: FeedbackdLevel
    /// The theme it comes from (the theme itself or one of its parents), by its `name`.
    public var theme: String
    /// The file it was read from, as given to the decoder.
    public var file: String
    /// Where its object starts in that file.
    public var location: SourceLocation

    /// Creates a feedback.
    public init(event: String, kind: Kind, section: FeedbackdLevel, theme: String, file: String,
                location: SourceLocation = .start) {
        self.event = event
        self.kind = kind
        self.section = section
        self.theme = theme
        self.file = file
        self.location = location
    }

    /// The feedbackd type name: `VibraRumble`, `VibraPeriodic`, `VibraPattern`, `Sound`, `Led`, `Dummy`.
    public var typeName: String {
        switch kind {
        case .rumble: return "VibraRumble"
        case .periodic: return "VibraPeriodic"
        case .pattern: return "VibraPattern"
        case .sound: return "Sound"
        case .led: return "Led"
        case .dummy: return "Dummy"
        }
    }

    /// Whether it is felt: the three `Vibra…` types.
    public var isHaptic: Bool {
        switch kind {
        case .rumble, .periodic, .pattern: return true
        case .sound, .led, .dummy: return false
        }
    }

    /// How a report names it: `button-pressed: VibraRumble (quiet, theme default) at default.json:40:9`.
    public var summary: String {
        "\(event): \(typeName) (\(section.rawValue), theme \(theme)) at \(file):\(location.line):\(location.column)"
    }
}

/// A `VibraRumble` feedback.
///
/// feedbackd splits `duration` into `count` periods: each rumbles for `duration / count − pause`
/// (whole milliseconds) and then pauses for `pause`. When that leaves no rumble, feedbackd plays
/// one rumble of 1,000 ms instead, and so does the pattern made from it (the decoder warns).
public struct FeedbackdRumble: Sendable, Hashable {
    /// The feedback's whole length, in milliseconds (`duration`, default 1,000).
    public var durationMilliseconds: Int
    /// How many rumbles (`count`, ≥ 1, default 1).
    public var count: Int
    /// The pause after each rumble, in milliseconds (`pause`, default 0).
    public var pauseMilliseconds: Int
    /// The rumble's magnitude, 0…1 (`magnitude`, default 1).
    public var magnitude: Double

    /// Creates a rumble.
    public init(durationMilliseconds: Int = 1_000, count: Int = 1, pauseMilliseconds: Int = 0, magnitude: Double = 1) {
        self.durationMilliseconds = durationMilliseconds
        self.count = count
        self.pauseMilliseconds = pauseMilliseconds
        self.magnitude = magnitude
    }

    /// Whether feedbackd's split leaves a rumble (`duration / count > pause`).
    public var splits: Bool { count > 0 && durationMilliseconds / count > pauseMilliseconds }

    /// The length of each rumble, in milliseconds, as feedbackd plays it.
    public var rumbleMilliseconds: Int { splits ? durationMilliseconds / count - pauseMilliseconds : 1_000 }

    /// The rumbles as played: `(start, length)` in milliseconds from the feedback's start.
    public var rumbles: [(startMilliseconds: Int, lengthMilliseconds: Int)] {
        guard splits else { return [(0, 1_000)] }
        let period = rumbleMilliseconds + pauseMilliseconds
        return (0..<count).map { (startMilliseconds: $0 * period, lengthMilliseconds: rumbleMilliseconds) }
    }
}

/// A `VibraPeriodic` feedback: one vibration that fades in.
public struct FeedbackdPeriodic: Sendable, Hashable {
    /// The vibration's length, in milliseconds (`duration`, default 1,000).
    public var durationMilliseconds: Int
    /// The magnitude it reaches, 0…1 (`magnitude`, default 0.5).
    public var magnitude: Double
    /// How long the fade-in lasts, in milliseconds (`fade-in-time`, default 0: no fade).
    public var fadeInMilliseconds: Int
    /// The magnitude the fade-in starts from, 0…1 (`fade-in-level`, default 0.5).
    public var fadeInLevel: Double

    /// Creates a periodic vibration.
    public init(durationMilliseconds: Int = 1_000, magnitude: Double = 0.5, fadeInMilliseconds: Int = 0, fadeInLevel: Double = 0.5) {
        self.durationMilliseconds = durationMilliseconds
        self.magnitude = magnitude
        self.fadeInMilliseconds = fadeInMilliseconds
        self.fadeInLevel = fadeInLevel
    }
}

/// A `VibraPattern` feedback: steps played one after the other.
public struct FeedbackdVibraPattern: Sendable, Hashable {
    /// One step: a magnitude (0…1; 0 is a pause) held for a duration.
    public struct Step: Sendable, Hashable {
        /// The magnitude, 0…1.
        public var magnitude: Double
        /// The length, in milliseconds.
        public var durationMilliseconds: Int
        /// Creates a step.
        public init(magnitude: Double, durationMilliseconds: Int) {
            self.magnitude = magnitude
            self.durationMilliseconds = durationMilliseconds
        }
    }

    /// The steps, from `magnitudes` and `durations` (arrays of the same length).
    public var steps: [Step]

    /// Creates a pattern.
    public init(steps: [Step]) {
        self.steps = steps
    }
}

/// A `Sound` feedback.
public struct FeedbackdSound: Sendable, Hashable {
    /// The sound's name in the XDG sound theme (`effect`; the event's name when absent).
    public var effect: String
    /// The media role of the stream (`media-role`), when given.
    public var mediaRole: String?

    /// Creates a sound feedback.
    public init(effect: String, mediaRole: String? = nil) {
        self.effect = effect
        self.mediaRole = mediaRole
    }
}

/// A `Led` feedback.
public struct FeedbackdLED: Sendable, Hashable {
    /// The color as written: `red`, `green`, `blue`, `white` or `#RRGGBB`.
    public var color: String
    /// The blinking frequency in millihertz (`frequency`).
    public var frequencyMillihertz: Int

    /// Creates an LED feedback.
    public init(color: String, frequencyMillihertz: Int) {
        self.color = color
        self.frequencyMillihertz = frequencyMillihertz
    }
}
