import Synchronization

/// Fans engine events out to the handler and every `events` subscription. Control side only.
final class EventHub: Sendable {
    private struct Listeners {
        var handler: (@Sendable (HapticEngine.Event) -> Void)?
        var continuations: [AsyncStream<HapticEngine.Event>.Continuation] = []
    }
    private let listeners = Mutex(Listeners())

    func subscribe(_ continuation: AsyncStream<HapticEngine.Event>.Continuation) {
        listeners.withLock { $0.continuations.append(continuation) }
    }

    func setHandler(_ handler: (@Sendable (HapticEngine.Event) -> Void)?) {
        listeners.withLock { $0.handler = handler }
    }

    /// Delivers `event`; the handler runs outside the lock so it may call back into the engine.
    func deliver(_ event: HapticEngine.Event) {
        let current = listeners.withLock { listeners in
            // Drop subscriptions whose consumer went away.
            listeners.continuations.removeAll { continuation in
                if case .terminated = continuation.yield(event) { return true }
                return false
            }
            return listeners.handler
        }
        current?(event)
    }

    /// Ends every subscription (the engine is going away).
    func finish() {
        let continuations = listeners.withLock { listeners in
            defer { listeners.continuations = [] }
            return listeners.continuations
        }
        for continuation in continuations { continuation.finish() }
    }
}
