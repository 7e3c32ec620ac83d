import HapticsSystem
import Synchronization

/// The adaptive triggers of one DualSense: set an effect on the left, the right or both, from any
/// thread, without waiting for the pad.
///
/// ```swift
/// let triggers = try AdaptiveTriggers(eventNode: "/dev/input/event5")
/// try triggers.setEffects(left: .weapon(start: 2, end: 6, strength: 8), right: .off)
/// ```
///
/// Opening finds the pad's hidraw node (``TriggerNode/locate(eventNode:sysfsRoot:devices:)``) and
/// opens it for writing: do it while the game loads, not in a frame. ``setEffects(left:right:)``
/// only records the effects and wakes a writer thread of its own, which writes one report with
/// the latest effect of each trigger (a write to a pad can block: over USB it waits for the
/// transfer). ``flush()`` writes on the calling thread instead, for tools and tests.
///
/// Closing (``close()``, or the last reference going away) sets both triggers off, so no effect
/// outlives the program's hold on the pad.
public final class AdaptiveTriggers: Sendable {
    /// The pad's hidraw node and connection.
    public var node: TriggerNode { outlet.node }

    private let outlet: _TriggerOutlet
    private let writer: OnDemandThread

    /// Finds the hidraw node of the pad behind `eventNode` and opens it.
    ///
    /// Throws ``TriggerDeviceError/noAdaptiveTriggers(eventNode:vendor:product:)`` for a pad
    /// without them, ``TriggerDeviceError/permissionDenied(node:)`` without the udev rule, and the
    /// other cases of ``TriggerDeviceError`` for a node that cannot be found or opened.
    public convenience init(eventNode: String, writerPriority: Int32? = nil) throws(TriggerDeviceError) {
        try self.init(node: TriggerNode.locate(eventNode: eventNode), writerPriority: writerPriority)
    }

    /// Opens `node` for writing and starts the writer thread. The writer wakes for an effect's
    /// instant with a 1 ns timer slack; `writerPriority` asks `SCHED_FIFO` for it (through rtkit
    /// when refused, as the engine's realtime threads do), so that timed effects keep their
    /// instants on a busy machine — the engine asks one below its own realtime thread's.
    public init(node: TriggerNode, writerPriority: Int32? = nil) throws(TriggerDeviceError) {
        let descriptor = try node.open()
        let outlet = _TriggerOutlet(node: node, descriptor: descriptor)
        do {
            writer = try OnDemandThread(name: "haptics-trigger", priority: writerPriority, timerSlack: .nanoseconds(1)) { now in
                try? outlet.writePending(now: now)
                return outlet.nextTimed
            }
        } catch {
            try? descriptor.close()
            throw .system(node: node.path, error)
        }
        self.outlet = outlet
    }

    deinit {
        close()
    }

    /// Gives the left trigger `left` and the right trigger `right` (`nil`: leave that trigger as
    /// it is), written by the writer thread at once. Does not wait for the pad and does not
    /// allocate beyond the effects themselves; an effect set again before it was written is
    /// replaced, so only the latest reaches the pad.
    ///
    /// Throws the failure of an earlier write (``TriggerDeviceError/padLost(node:_:)`` once the
    /// pad is gone), or ``TriggerDeviceError/closed(node:)`` after ``close()``.
    public func setEffects(left: TriggerEffect?, right: TriggerEffect?) throws(TriggerDeviceError) {
        try outlet.queue(left: left, right: right, at: nil)
        writer.schedule(at: .now)
    }

    /// Gives the triggers `left` and `right` at `instant` (`CLOCK_MONOTONIC`, the engine's clock):
    /// the writer thread writes them then, after what was set for earlier instants; an instant
    /// passed already is now. At most ``timedCapacity`` effects wait at once; one more throws
    /// ``TriggerDeviceError/tooManyTimedEffects(node:capacity:)``.
    public func setEffects(left: TriggerEffect?, right: TriggerEffect?, at instant: MonotonicInstant) throws(TriggerDeviceError) {
        try outlet.queue(left: left, right: right, at: instant)
        writer.schedule(at: instant)
    }

    /// How many timed effects may wait at once.
    public static let timedCapacity = _TriggerOutlet.timedCapacity

    /// Sets both triggers off now and drops every effect still waiting for its instant.
    public func reset() throws(TriggerDeviceError) {
        try stop(at: .now)
    }

    /// Drops every effect set for `instant` or later and sets both triggers off at `instant` (now
    /// when it has passed): what stopping a pattern does to its pad's triggers.
    public func stop(at instant: MonotonicInstant) throws(TriggerDeviceError) {
        outlet.dropTimed(from: instant)
        if instant <= .now {
            try setEffects(left: .off, right: .off)
        } else {
            try setEffects(left: .off, right: .off, at: instant)
        }
    }

    /// How strongly the effects play, 0…1 (1 at first): every effect written is
    /// ``TriggerEffect/scaled(by:)`` this factor, the ones playing now included — setting it writes
    /// them again, scaled anew. A player's haptics strength setting, applied to the triggers.
    public var strength: Double {
        get { outlet.strength }
        set {
            guard outlet.setStrength(newValue) else { return }
            writer.schedule(at: .now)
        }
    }

    /// Drops every effect set for `instant` or later; what the triggers play stays.
    public func dropEffects(from instant: MonotonicInstant) {
        outlet.dropTimed(from: instant)
    }

    /// Writes what is due now on the calling thread, and throws that write's failure.
    public func flush() throws(TriggerDeviceError) {
        try outlet.writePending(now: .now)
    }

    /// Stops the writer thread, sets both triggers off and closes the node. Idempotent; nothing is
    /// written after it.
    public func close() {
        writer.stop()
        outlet.close()
    }
}

/// The node and what waits to be written to it, shared by the caller and the writer thread.
final class _TriggerOutlet: Sendable {
    let node: TriggerNode

    /// What the callers asked for and the writer has not written yet.
    private struct Pending {
        var left: TriggerEffect?
        var right: TriggerEffect?
        /// Effects for later instants, in the order they are due (equal instants: as set).
        var timed: [(instant: MonotonicInstant, left: TriggerEffect?, right: TriggerEffect?)] = []
        var failure: TriggerDeviceError?
        var isClosed = false
    }

    static let timedCapacity = 64

    /// Taken briefly by callers: never held across a write.
    private let pending = OrderedMutex(Pending())
    /// Held for each write: the descriptor (`nil` once closed) and the Bluetooth sequence number.
    private let io: OrderedMutex<_IO>

    /// The descriptor (`nil` once closed), the next Bluetooth sequence number, and the effects last
    /// written to each trigger before scaling (`nil`: none yet).
    struct _IO {
        var descriptor: FileDescriptor?
        var sequence: UInt8 = 0
        var left: TriggerEffect?
        var right: TriggerEffect?
    }

    /// ``AdaptiveTriggers/strength``, as the bits of a `Double`.
    private let strengthBits = Atomic<UInt64>(1.0.bitPattern)

    var strength: Double { Double(bitPattern: strengthBits.load(ordering: .relaxed)) }

    /// Sets the strength (clamped to 0…1, NaN as 0) and queues the effects written so far to be
    /// written again at it, unless newer ones wait already. Whether it changed.
    func setStrength(_ value: Double) -> Bool {
        let clamped = value.isNaN ? 0 : min(max(value, 0), 1)
        guard strengthBits.exchange(clamped.bitPattern, ordering: .relaxed) != clamped.bitPattern else { return false }
        let written = io.withLock { (io: inout _IO) in (io.left, io.right) }
        pending.withLock { (pending: inout Pending) in
            if pending.left == nil { pending.left = written.0 }
            if pending.right == nil { pending.right = written.1 }
        }
        return true
    }

    init(node: TriggerNode, descriptor: FileDescriptor) {
        self.node = node
        io = OrderedMutex(_IO(descriptor: descriptor))
    }

    /// Keeps `left` and `right` for the next write (`instant` `nil`), or for the writer's run at
    /// `instant`.
    func queue(left: TriggerEffect?, right: TriggerEffect?, at instant: MonotonicInstant?) throws(TriggerDeviceError) {
        let node = node.path
        try pending.withLock { (pending: inout Pending) throws(TriggerDeviceError) in
            if pending.isClosed { throw .closed(node: node) }
            if let failure = pending.failure { throw failure }
            if let instant {
                guard pending.timed.count < Self.timedCapacity else {
                    throw .tooManyTimedEffects(node: node, capacity: Self.timedCapacity)
                }
                let index = pending.timed.firstIndex { $0.instant > instant } ?? pending.timed.endIndex
                pending.timed.insert((instant, left, right), at: index)
                return
            }
            if let left { pending.left = left }
            if let right { pending.right = right }
        }
    }

    /// The instant of the next effect waiting for one, if any.
    var nextTimed: MonotonicInstant? { pending.withLock { $0.timed.first?.instant } }

    /// Drops the effects waiting for `instant` or later.
    func dropTimed(from instant: MonotonicInstant) {
        pending.withLock { $0.timed.removeAll { $0.instant >= instant } }
    }

    /// Writes one report with what is pending and the timed effects due by `now` (the latest of
    /// each trigger), if anything is; a failure is kept for the next caller too, since the writer
    /// thread has no one to tell.
    func writePending(now: MonotonicInstant) throws(TriggerDeviceError) {
        let failure = io.withLock { (io: inout _IO) -> TriggerDeviceError? in
            let (left, right) = takePending(now: now)
            guard left != nil || right != nil else { return nil }
            do throws(TriggerDeviceError) {
                try write(left: left, right: right, io: &io)
                return nil
            } catch {
                return error
            }
        }
        guard let failure else { return }
        pending.withLock { (pending: inout Pending) in pending.failure = pending.failure ?? failure }
        throw failure
    }

    private func takePending(now: MonotonicInstant) -> (left: TriggerEffect?, right: TriggerEffect?) {
        pending.withLock { (pending: inout Pending) -> (left: TriggerEffect?, right: TriggerEffect?) in
            // Due timed effects in their order, then what was set for now: the latest wins.
            let due = pending.timed.prefix { $0.instant <= now }
            var taken: (left: TriggerEffect?, right: TriggerEffect?) = (nil, nil)
            for effect in due {
                if let left = effect.left { taken.left = left }
                if let right = effect.right { taken.right = right }
            }
            pending.timed.removeFirst(due.count)
            if let left = pending.left { taken.left = left }
            if let right = pending.right { taken.right = right }
            pending.left = nil
            pending.right = nil
            return taken
        }
    }

    /// Sets both triggers off and closes the node; later calls throw ``TriggerDeviceError/closed(node:)``.
    func close() {
        pending.withLock { (pending: inout Pending) in pending.isClosed = true }
        io.withLock { (io: inout _IO) in
            guard let descriptor = io.descriptor else { return }
            try? write(left: .off, right: .off, io: &io)
            try? descriptor.close()
            io.descriptor = nil
        }
    }

    private func write(
        left: TriggerEffect?, right: TriggerEffect?, io: inout _IO
    ) throws(TriggerDeviceError) {
        guard let descriptor = io.descriptor else { throw .closed(node: node.path) }
        let strength = self.strength
        let report = DualSenseTriggerReport(
            transport: node.transport, left: left?.scaled(by: strength), right: right?.scaled(by: strength), sequence: io.sequence)
        io.sequence = (io.sequence + 1) & 0x0F
        try node.write(report, to: descriptor)
        if let left { io.left = left }
        if let right { io.right = right }
    }
}
