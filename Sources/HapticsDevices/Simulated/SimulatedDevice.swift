import HapticsRendering
import HapticsScheduler
import Synchronization
import HapticsSystem

/// An actuator that only records: the default output when no real device is present, and the way to
/// look at (``TerminalPlot``, ``SVGPlot``) and listen to (``MotorSound``) any pattern.
///
/// `perform` runs on the scheduler's realtime thread: it writes one ``RecordedCommand`` into storage
/// allocated at init and publishes it with an atomic count — no allocation, no lock. When the storage
/// is full, further commands are dropped and counted in ``droppedCount``; call ``reset()`` to reuse it.
public final class SimulatedDevice: Actuator, @unchecked Sendable {
    // @unchecked: `records` is written only by the single `perform` caller at index `count` before
    // that index is published with a releasing store, and read by the control side only below the
    // count it acquired; control-side readers and `reset` serialize on `controlLock`.

    /// The profile the device pretends to be.
    public let profile: DeviceProfile
    /// How many commands fit before dropping.
    public let capacity: Int

    private let records: UnsafeMutablePointer<RecordedCommand>
    private let count = Atomic<Int>(0)
    private let dropped = Atomic<Int>(0)
    private let controlLock = OrderedMutex<Void>(())

    /// Creates a device that records up to `capacity` commands, 1…1 048 576: a capacity outside
    /// is clamped into it (``capacity`` says what the device holds).
    public init(profile: DeviceProfile, capacity requested: Int = 65_536) {
        let capacity = min(max(requested, 1), 1 << 20)
        self.profile = profile
        self.capacity = capacity
        self.records = UnsafeMutablePointer<RecordedCommand>.allocate(capacity: capacity)
    }

    deinit {
        // RecordedCommand is a trivial type: no deinitialization needed before freeing.
        records.deallocate()
    }

    /// Records `command`. Realtime-safe: no allocation, no lock, no logging.
    ///
    /// Called by one thread at a time (the scheduler's realtime thread); reading the recording
    /// from other threads meanwhile is safe.
    public func perform(_ command: ActuatorCommand, channel: ChannelID, deadline: MonotonicInstant, now: MonotonicInstant) {
        let index = count.load(ordering: .relaxed)
        guard index < capacity else {
            dropped.wrappingAdd(1, ordering: .relaxed)
            return
        }
        (records + index).initialize(
            to: RecordedCommand(time: now, deadline: deadline, channel: channel, command: command)
        )
        // A concurrent `reset` wins: the command being recorded at that moment is discarded.
        _ = count.compareExchange(expected: index, desired: index + 1, ordering: .releasing)
    }

    /// Every command recorded since creation or the last ``reset()``, in arrival order.
    public func recording() -> [RecordedCommand] {
        controlLock.withLock { _ in
            let published = count.load(ordering: .acquiring)
            return Array(UnsafeBufferPointer(start: records, count: published))
        }
    }

    /// The number of commands recorded so far.
    public var recordedCount: Int { count.load(ordering: .acquiring) }

    /// The number of commands dropped because the storage was full.
    public var droppedCount: Int { dropped.load(ordering: .relaxed) }

    /// Forgets every recorded command and the drop count.
    public func reset() {
        controlLock.withLock { _ in
            count.store(0, ordering: .releasing)
            dropped.store(0, ordering: .relaxed)
        }
    }
}
