import HapticsSystem
import Synchronization

/// The engine's pattern players, so that housekeeping can queue their sound's next loop passes and
/// deliver their completions, and a device added while they play can join them. Holds them weakly:
/// a released player leaves on its own.
final class PlayerRegistry: Sendable {
    private struct Entry: Sendable {
        weak var player: HapticPatternPlayer?
    }

    private let entries = OrderedMutex<[ObjectIdentifier: Entry]>([:])

    /// Adds a player. Control side.
    func register(_ player: HapticPatternPlayer) {
        entries.withLock { $0[ObjectIdentifier(player)] = Entry(player: player) }
    }

    /// Removes a player (from its `deinit`).
    func unregister(_ identifier: ObjectIdentifier) {
        _ = entries.withLock { $0.removeValue(forKey: identifier) }
    }

    /// The players still alive.
    var players: [HapticPatternPlayer] {
        entries.withLock { $0.values.compactMap(\.player) }
    }
}
