/// One actuator channel of a scheduler (a device, or one actuator of a device).
public struct ChannelID: Sendable, Hashable {
    /// The channel's index in its scheduler, in the order channels were added.
    public let rawValue: Int

    /// Wraps a channel index.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }
}
