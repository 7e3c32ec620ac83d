import HapticsTriggers

/// A change of a pad's adaptive trigger effects at a time of a pattern: the left, the right or both
/// (`nil`: that trigger as it is). Played on every pad of the player that has adaptive triggers.
public struct TriggerPatternEvent: Sendable, Hashable {
    /// Seconds from the pattern's start.
    public var time: Double
    /// The left trigger's new effect.
    public var left: TriggerEffect?
    /// The right trigger's new effect.
    public var right: TriggerEffect?

    /// Creates a trigger event; at least one of `left` and `right` is expected.
    public init(time: Double, left: TriggerEffect? = nil, right: TriggerEffect? = nil) {
        self.time = time
        self.left = left
        self.right = right
    }
}
