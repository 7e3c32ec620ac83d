import Synchronization

/// Which scheduler channels carry a working output, readable without locks from any thread.
///
/// Capacity is fixed at `SchedulerConfiguration.maximumChannels`: a channel is published once
/// (`live`), and retired once its device is lost; retired channels are never reused, so a reader
/// that saw a channel live may still submit to it and the scheduler simply ignores what it no
/// longer knows.
final class ChannelRoster: @unchecked Sendable {
    /// A channel's lifecycle. Only moves forward: empty → live → retired.
    enum State: Int {
        case empty = 0
        case live = 1
        case retired = 2
    }

    let capacity: Int
    private let states: UnsafeMutablePointer<Atomic<Int>>
    private let publishedCount = Atomic<Int>(0)
    private let liveTotal = Atomic<Int>(0)

    init(capacity: Int) {
        self.capacity = capacity
        states = .allocate(capacity: capacity)
        for index in 0..<capacity { (states + index).initialize(to: Atomic(State.empty.rawValue)) }
    }

    deinit {
        states.deinitialize(count: capacity)
        states.deallocate()
    }

    /// One past the highest channel index ever published: readers scan `0..<upperBound`.
    var upperBound: Int { publishedCount.load(ordering: .acquiring) }

    /// How many channels are live now.
    var liveCount: Int { liveTotal.load(ordering: .acquiring) }

    /// Whether `channel` carries a working output. Everything written for the channel before
    /// `publish` is visible once this returns `true` (acquire).
    func isLive(_ channel: Int) -> Bool {
        states[channel].load(ordering: .acquiring) == State.live.rawValue
    }

    /// Marks `channel` live, after everything readers need for it has been written. Control side.
    func publish(_ channel: Int) {
        states[channel].store(State.live.rawValue, ordering: .releasing)
        liveTotal.add(1, ordering: .releasing)
        // Monotonic maximum; only the control side (under the engine's lock) publishes.
        if channel + 1 > publishedCount.load(ordering: .relaxed) {
            publishedCount.store(channel + 1, ordering: .releasing)
        }
    }

    /// Retires a live channel; returns `false` when it was not live. Control side.
    @discardableResult
    func retire(_ channel: Int) -> Bool {
        let (exchanged, _) = states[channel].compareExchange(
            expected: State.live.rawValue, desired: State.retired.rawValue, ordering: .acquiringAndReleasing)
        if exchanged { liveTotal.subtract(1, ordering: .releasing) }
        return exchanged
    }
}
