/// The outcome a notification feedback reports.
public enum NotificationType: String, Sendable, Hashable, CaseIterable {
    /// A task succeeded.
    case success
    /// A task produced a warning.
    case warning
    /// A task failed.
    case error
}

/// The physical character of an impact feedback.
public enum ImpactStyle: String, Sendable, Hashable, CaseIterable {
    /// A collision between small, light objects.
    case light
    /// A collision between moderately sized objects.
    case medium
    /// A collision between large, heavy objects.
    case heavy
    /// A collision between soft, flexible objects.
    case soft
    /// A collision between hard, inflexible objects.
    case rigid
}

/// One item of the feedback vocabulary. Each item has exactly one canonical pattern
/// (`Patterns/<name>.ahap`); devices adapt it, nobody redefines it.
public enum Feedback: Sendable, Hashable {
    /// A notification: success, warning or error.
    case notification(NotificationType)
    /// An impact of a style, scaled by `intensity` (0…1).
    case impact(ImpactStyle, intensity: Double = 1.0)
    /// A selection change (a detent, a tick).
    case selection
}
