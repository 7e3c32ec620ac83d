import CEvdev
import Glibc
import HapticsRendering
import HapticsScheduler
import Synchronization
import HapticsSystem

/// Drives an evdev force-feedback device from the scheduler's realtime thread, with every level
/// a program needs uploaded ahead of time so that a trigger is one `write()`.
///
/// - **Prepared table.** ``prepare(_:)`` (control side) uploads each distinct non-silent level of
///   the program with `EVIOCSFF` into a fixed table of at most `slots − 1` entries (and at most
///   ``Configuration/maximumPreparedLevels``); the kernel-assigned id is kept and reused. When the
///   table is full, an entry that is neither playing nor part of the program being prepared is
///   erased (`EVIOCRMFF`): one only prepared ahead first, else the least recently used.
///   ``prepareAhead(_:)`` uploads levels a play may reach (an impact's other intensities) into free
///   entries only. Entries are published with release/acquire atomics.
/// - **Trigger.** ``perform(_:channel:deadline:now:)`` (realtime thread) scans at most 16 entries
///   lock-free. A prepared level from silence is exactly one `write()` of `EV_FF` (play); a prepared
///   level while another plays is one too, of two events (stop, then play — ff-memless sums every
///   playing effect, so two are never left playing; in one call, the driver never sees the silence
///   between); silence is one (stop). No ioctl, no allocation, no lock, no log.
/// - **Streaming slot.** One slot is kept for levels that were not prepared (continuous patterns,
///   dynamic parameters): the realtime thread updates its own streaming effect in place (`EVIOCSFF`
///   with the same id; the first one allocates) and plays it if it is not playing. That is the only
///   ioctl on the realtime thread, counted in ``statistics``. On a 1-slot device the table is empty
///   and every level streams.
/// - **Safety net.** Each prepared level carries `replay.length` = its longest hold in the programs
///   prepared so far plus ``Configuration/safetyMargin``, the streaming effect at least
///   ``Configuration/minimumStreamingLength``; the engine sends its own stops, the length only ends
///   a level if the engine hangs. ``lifetimeOfPerformedLevel(on:now:)`` tells the scheduler when
///   the length of what plays runs out, and the scheduler performs a level it still holds again
///   before then (a play `write()` of the same effect, which restarts its length): holds longer
///   than planned (loops, slow rates, runtime parameters, rumble) never end early.
/// - **Loss.** When a call fails with `ENODEV` (unplugged), ``lossError`` is published and the
///   actuator makes no further system calls on the device; nothing traps.
/// - **Close.** ``close()`` (and deinit) waits for a running `perform` to return, stops what plays,
///   erases every effect it uploaded and closes the descriptor.
///
/// - **Rehearsal.** While rehearsing (``setRehearsing(_:)``), every write carries its events with
///   the value -1: the same calls reach the kernel, whose input core drops an `EV_FF` event with a
///   negative value before the driver or a uinput device's owner sees it. An upload a rehearsal
///   needs (the streaming effect) is real: the streaming slot is the actuator's own.
///
/// One actuator serves one scheduler channel: `perform` must be called from one thread at a time.
public final class EvdevActuator: PreparableActuator, HardwareGainActuator, LossAnnouncingActuator, RehearsingActuator,
    @unchecked Sendable {
    /// The device this actuator drives (and closes).
    public let device: EvdevDevice
    /// The tuning it was created with.
    public let configuration: Configuration

    let clock: any HapticClock
    let table: _PreparedLevelTable
    let counters = _ActuatorCounters()
    /// State only the realtime thread touches (and ``close()`` once the realtime thread is out).
    let realtime: UnsafeMutablePointer<_RealtimeState>
    /// Serializes the control side (prepare, expire, gain, close). The realtime thread never takes it.
    let control: OrderedMutex<_ControlState>

    /// Whether a `perform` call is in progress, and whether ``close()`` has begun: `close` sets
    /// `isShutDown`, then waits for `isPerforming` to clear before it touches the descriptor.
    /// `perform` has one caller at a time (the channel's realtime thread), so a flag suffices: it
    /// is raised with a sequentially consistent store (the one full barrier a trigger pays) and
    /// lowered with a plain release store.
    let isPerforming = Atomic<Bool>(false)
    let isShutDown = Atomic<Bool>(false)
    /// The loss, published once in one word: `call << 32 | errno` (0: none).
    let loss = Atomic<Int>(0)
    /// Where the loss, once published, asks for its report (`announceLoss(to:)`).
    let lossRequests = AtomicLazyReference<RunRequests>()
    /// When the kernel would end what plays on its own (nanoseconds, `.min` when nothing plays):
    /// written at the end of each `perform`, read by ``lifetimeOfPerformedLevel(on:now:)``.
    let expiry = Atomic<Int64>(.min)
    /// Whether plays are rehearsals (`RehearsingActuator`): their `EV_FF` events are written with
    /// the value -1, which the kernel's input core drops before any driver or device owner sees it.
    let rehearsing = Atomic<Bool>(false)
    /// The streaming effect's `replay.length` in ms, set by `prepare`, read by the realtime thread.
    let streamingLength: Atomic<Int>
    /// ``Configuration/safetyMargin`` in nanoseconds, converted once: holds are measured in program
    /// offsets, which are `Int64` nanoseconds.
    let safetyMarginNanoseconds: Int64
    /// ``Configuration/minimumStreamingLength`` in nanoseconds, converted once.
    let minimumStreamingNanoseconds: Int64

    /// Drives `device`. `clock` stamps prepares for LRU and expiry; use the scheduler's clock.
    public init(device: EvdevDevice, clock: any HapticClock = SystemMonotonicClock(),
                configuration: Configuration = Configuration()) {
        self.device = device
        self.configuration = configuration
        self.clock = clock
        let capacity = max(0, min(device.info.slots - 1, configuration.maximumPreparedLevels, 16))
        table = _PreparedLevelTable(capacity: capacity)
        realtime = .allocate(capacity: 1)
        realtime.initialize(to: _RealtimeState())
        control = OrderedMutex(_ControlState(capacity: capacity))
        // Bounded by the longest `replay.length` (UInt16 milliseconds), so sums of holds and
        // margins stay far from overflowing.
        safetyMarginNanoseconds = Self.replayRange(configuration.safetyMargin)
        minimumStreamingNanoseconds = Self.replayRange(configuration.minimumStreamingLength)
        streamingLength = Atomic(Self.milliseconds(minimumStreamingNanoseconds))
    }

    /// Opens the event node at `path` (see ``EvdevDevice/init(path:)``) and drives it.
    public convenience init(path: String, clock: any HapticClock = SystemMonotonicClock(),
                            configuration: Configuration = Configuration()) throws(DeviceError) {
        self.init(device: try EvdevDevice(path: path), clock: clock, configuration: configuration)
    }

    deinit {
        close()
        realtime.deinitialize(count: 1).deallocate()
    }

    package func announceLoss(to requests: RunRequests) {
        _ = lossRequests.storeIfNil(requests)
    }

    package func setRehearsing(_ rehearsing: Bool) {
        self.rehearsing.store(rehearsing, ordering: .relaxed)
    }

    /// How many levels can be prepared at once (`slots − 1`, at most 16; 0 on a 1-slot device).
    public var preparedCapacity: Int { table.capacity }

    /// Whether the device applies a gain (`FF_GAIN`).
    public var supportsHardwareGain: Bool { device.info.supportsGain }

    /// Counters since creation.
    public var statistics: EvdevActuatorStatistics { counters.snapshot }

    /// The levels prepared now, as `(level, kernel effect id)` in table order (for diagnostics and tests).
    public var preparedLevels: [(command: ActuatorCommand, effectID: Int16)] {
        (0..<table.capacity).compactMap { index in
            let phase = table.phase(index)
            guard phase == .ready || phase == .playing else { return nil }
            return (_EffectLevel.command(table.key(index)), table.effectID(index))
        }
    }

    /// The error that ended the device (`write: ENODEV`…), or `nil` while it works.
    public var lossError: SystemCallError? {
        let word = loss.load(ordering: .acquiring)
        guard word != 0 else { return nil }
        return SystemCallError(call: _Call(rawValue: word >> 32)?.name ?? "write",
                               errno: Errno(rawValue: CInt(truncatingIfNeeded: word & 0xFFFF_FFFF)))
    }

    /// Stops what plays, erases every uploaded effect and closes the device. Waits for a running
    /// `perform` to return first; later `perform` calls do nothing. Idempotent; also done on deinit.
    ///
    /// The corresponding ioctl is `EVIOCRMFF`, then the C function `close`.
    public func close() {
        control.withLock { state in
            guard !state.isClosed else { return }
            state.isClosed = true
            isShutDown.store(true, ordering: .sequentiallyConsistent)
            // The realtime thread never blocks on us; we wait for it (a write takes microseconds).
            while isPerforming.load(ordering: .sequentiallyConsistent) { sched_yield() }
            if loss.load(ordering: .acquiring) == 0 {
                _silence()
                expiry.store(.min, ordering: .relaxed)
                for index in 0..<table.capacity where table.phase(index) != .free {
                    _ = _erase(table.effectID(index))
                    table.free(index)
                }
                if realtime.pointee.streamEffect.id >= 0 {
                    _ = _erase(realtime.pointee.streamEffect.id)
                    realtime.pointee.streamEffect.id = -1
                    realtime.pointee.streamKey = 0
                }
            }
            device.close()
        }
    }

    /// A span clamped to 0…65 535 ms (what `replay.length` holds), in nanoseconds.
    static func replayRange(_ span: Duration) -> Int64 {
        min(max(span.nanoseconds, 0), Int64(UInt16.max) * 1_000_000)
    }

    static func milliseconds(_ nanoseconds: Int64) -> Int {
        let rounded = (max(0, nanoseconds) + 999_999) / 1_000_000
        return Int(min(rounded, Int64(UInt16.max)))
    }
}
