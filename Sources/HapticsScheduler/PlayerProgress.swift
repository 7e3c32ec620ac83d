/// Where a player is, as the realtime side last performed it: readable from any thread without a
/// lock (``Scheduler/progress(of:at:)``).
public struct PlayerProgress: Sendable, Hashable {
    /// What the player is doing.
    public enum State: Sendable, Hashable {
        /// Not started, stopped, or at its end.
        case stopped
        /// Playing on its channel.
        case playing
        /// Paused: silent, keeping its position for `resume`.
        case paused
    }

    /// What the player is doing.
    public var state: State
    /// The program offset it plays at the instant asked about (rate aware; within one loop pass
    /// for a looping player). A paused player's position is where it paused; a stopped player's is
    /// where its next start begins (0 unless a seek moved it).
    public var position: Duration
    /// Its playback rate.
    public var rate: Double

    /// Creates a progress value.
    public init(state: State, position: Duration, rate: Double) {
        self.state = state
        self.position = position
        self.rate = rate
    }
}
