/// A feedbackd profile: how much feedback the user wants, and the theme section of that name.
///
/// feedbackd's rule: a level plays its own section and every quieter one. `full` plays the `full`,
/// `quiet` and `silent` sections, `quiet` plays `quiet` and `silent`, `silent` only `silent`.
public enum FeedbackdLevel: String, Sendable, Hashable, CaseIterable, Comparable {
    /// Only the `silent` section: usually LEDs, no sound and no vibration.
    case silent
    /// The `quiet` and `silent` sections: usually vibration, no sound.
    case quiet
    /// Every section: sound, vibration and LEDs.
    case full

    /// The sections this level plays, loudest first (`full`: `full`, `quiet`, `silent`).
    public var playedSections: [FeedbackdLevel] {
        FeedbackdLevel.allCases.filter { $0 <= self }.reversed()
    }

    /// Orders levels from `silent` to `full`.
    public static func < (lhs: FeedbackdLevel, rhs: FeedbackdLevel) -> Bool {
        lhs.order < rhs.order
    }

    private var order: Int {
        switch self {
        case .silent: return 0
        case .quiet: return 1
        case .full: return 2
        }
    }
}
