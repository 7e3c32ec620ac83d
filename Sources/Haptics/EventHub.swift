import HapticsSystem
import Synchronization

/// Fans engine events out to the handler and every `events` subscription. Control side only.
///
/// The events of an engine's creation (a device that cannot be opened, the fallback to the
/// simulated device) happen before anyone can listen: they are kept (`keepUntilHeard`) and handed
/// to the first handler or subscription, so that an app that subscribes right after creating the
/// engine learns them. Other events reach only those listening when they happen.
final class EventHub: Sendable {
    private struct Listeners {
        var handler: (@Sendable (HapticEngine.Event) -> Void)?
        var continuations: [AsyncStream<HapticEngine.Event>.Continuation] = []
        /// Creation events nobody has heard yet.
        var unheard: [HapticEngine.Event] = []
    }
    private let listeners = OrderedMutex(Listeners())

    /// Keeps `events` for the first listener. Called once, by the engine's initializer.
    func keepUntilHeard(_ events: [HapticEngine.Event]) {
        listeners.withLock { $0.unheard = events }
    }

    func subscribe(_ continuation: AsyncStream<HapticEngine.Event>.Continuation) {
        let unheard = listeners.withLock { listeners -> [HapticEngine.Event] in
            listeners.continuations.append(continuation)
            return takeUnheard(&listeners)
        }
        for event in unheard { continuation.yield(event) }
    }

    func setHandler(_ handler: (@Sendable (HapticEngine.Event) -> Void)?) {
        let unheard = listeners.withLock { listeners -> [HapticEngine.Event] in
            listeners.handler = handler
            return handler == nil ? [] : takeUnheard(&listeners)
        }
        for event in unheard { handler?(event) }
    }

    private func takeUnheard(_ listeners: inout Listeners) -> [HapticEngine.Event] {
        defer { listeners.unheard = [] }
        return listeners.unheard
    }

    /// Delivers `event`; the handler runs outside the lock so it may call back into the engine.
    func deliver(_ event: HapticEngine.Event) {
        let current = listeners.withLock { listeners -> (@Sendable (HapticEngine.Event) -> Void)? in
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
