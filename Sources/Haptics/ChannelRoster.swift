import HapticsSystem
import Synchronization

/// Which scheduler channels carry a working device, and that device's per-device switches,
/// readable without locks from any thread.
///
/// Capacity is fixed at `SchedulerConfiguration.maximumChannels`. A channel moves empty → live →
/// retired, and a retired channel becomes live again when the engine gives it to another device
/// (or the same pad plugged in again) once the scheduler has let go of everything the old device
/// played. A pad added to a running engine is published rehearsing first: only the thread that
/// rehearses it (`rehearsalThread`) plays on it, until it is made live. Each time a channel is
/// published its generation grows: a reader takes a `snapshot`, reads what it needs for the
/// channel, and accepts what it read only while the snapshot still holds (`holds`), so it never
/// mixes what two devices wrote. A submission that raced the retirement names players the engine
/// released first, and the scheduler ignores it.
final class ChannelRoster: @unchecked Sendable {
    /// A channel's lifecycle state.
    enum State: Int {
        case empty = 0
        case live = 1
        case retired = 2
        /// Published for the engine's rehearsal of the device only.
        case rehearsing = 3
    }

    let capacity: Int
    /// Per channel: generation << 2 | state.
    private let states: UnsafeMutablePointer<Atomic<Int>>
    /// Per channel: the engine's id of the device on it (`HapticDevice.ID.rawValue`), −1 for none.
    private let deviceIDs: UnsafeMutablePointer<Atomic<Int>>
    /// Per channel: the device's own gain, as `Double` bits.
    private let gains: UnsafeMutablePointer<Atomic<UInt64>>
    /// Per channel: bit 0 enabled, bit 1 a real device (not the simulated fallback), bit 2 a pad
    /// with voice coils.
    private let flags: UnsafeMutablePointer<Atomic<Int>>
    /// The thread rehearsing (its `ThreadIdentity`), whose plays pass on rehearsing channels (and,
    /// in `start()`, on the stopped engine); 0 when none.
    let rehearsalThread = Atomic<Int32>(0)
    private let publishedCount = Atomic<Int>(0)
    private let liveTotal = Atomic<Int>(0)

    init(capacity: Int) {
        self.capacity = capacity
        states = .allocate(capacity: capacity)
        deviceIDs = .allocate(capacity: capacity)
        gains = .allocate(capacity: capacity)
        flags = .allocate(capacity: capacity)
        for index in 0..<capacity {
            (states + index).initialize(to: Atomic(State.empty.rawValue))
            (deviceIDs + index).initialize(to: Atomic(-1))
            (gains + index).initialize(to: Atomic(Double(1).bitPattern))
            (flags + index).initialize(to: Atomic(0))
        }
    }

    deinit {
        states.deinitialize(count: capacity)
        states.deallocate()
        deviceIDs.deinitialize(count: capacity)
        deviceIDs.deallocate()
        gains.deinitialize(count: capacity)
        gains.deallocate()
        flags.deinitialize(count: capacity)
        flags.deallocate()
    }

    /// One past the highest channel index ever published: readers scan `0..<upperBound`.
    var upperBound: Int { publishedCount.load(ordering: .acquiring) }

    /// How many channels are live now.
    var liveCount: Int { liveTotal.load(ordering: .acquiring) }

    /// The channel's generation and state now. Everything written for the channel before it was
    /// published is visible to a reader that took a live snapshot.
    func snapshot(_ channel: Int) -> Int { states[channel].load(ordering: .sequentiallyConsistent) }

    /// Whether a snapshot says live.
    static func isLive(_ snapshot: Int) -> Bool { snapshot & 3 == State.live.rawValue }

    /// Whether a snapshot says rehearsing.
    static func isRehearsing(_ snapshot: Int) -> Bool { snapshot & 3 == State.rehearsing.rawValue }

    /// Whether the calling thread plays on a channel with this snapshot: a live one, or one
    /// rehearsing when this thread rehearses.
    @inline(__always)
    func admits(_ snapshot: Int) -> Bool {
        Self.isLive(snapshot) || (Self.isRehearsing(snapshot) && isRehearsingOnThisThread)
    }

    /// Whether this thread is the one rehearsing.
    var isRehearsingOnThisThread: Bool {
        let thread = rehearsalThread.load(ordering: .acquiring)
        return thread != 0 && thread == ThreadIdentity.current
    }

    /// Whether the channel is still as `snapshot` saw it: what was read in between belongs to it.
    func holds(_ channel: Int, _ snapshot: Int) -> Bool { states[channel].load(ordering: .sequentiallyConsistent) == snapshot }

    /// Whether `channel` carries a working device.
    func isLive(_ channel: Int) -> Bool { Self.isLive(snapshot(channel)) }

    /// Whether the calling thread plays on `channel`: it carries a working device (or one this
    /// thread rehearses) that is enabled.
    func isPlayable(_ channel: Int) -> Bool { admits(snapshot(channel)) && isEnabled(channel) }

    /// The id of the device on `channel` (−1 for none).
    func deviceID(_ channel: Int) -> Int { deviceIDs[channel].load(ordering: .sequentiallyConsistent) }

    /// The device's own gain on `channel`, 0…1.
    func gain(_ channel: Int) -> Double { Double(bitPattern: gains[channel].load(ordering: .relaxed)) }

    /// Whether the device on `channel` is enabled.
    func isEnabled(_ channel: Int) -> Bool { flags[channel].load(ordering: .relaxed) & 1 != 0 }

    /// Whether the device on `channel` is a real one (not the simulated fallback).
    func isReal(_ channel: Int) -> Bool { flags[channel].load(ordering: .relaxed) & 2 != 0 }

    /// Whether the device on `channel` has voice coils (``HapticDevice/hasVoiceCoils``): a pattern
    /// player's start looks further (locks, lookups) only for such a pad.
    func hasVoiceCoils(_ channel: Int) -> Bool { flags[channel].load(ordering: .relaxed) & 4 != 0 }

    /// Sets the device's gain on `channel` (0…1, already checked). Control side.
    func setGain(_ channel: Int, _ gain: Double) { gains[channel].store(gain.bitPattern, ordering: .relaxed) }

    /// Switches the device on `channel` on or off. Control side.
    func setEnabled(_ channel: Int, _ enabled: Bool) {
        if enabled {
            flags[channel].bitwiseOr(1, ordering: .relaxed)
        } else {
            flags[channel].bitwiseAnd(~1, ordering: .relaxed)
        }
    }

    /// Marks `channel` live (or, `rehearsing`, rehearsing: ``makeLive(_:)`` follows) for device
    /// `device`, after everything readers need for it has been written. Control side (under the
    /// engine's lock), on an empty or retired channel.
    func publish(_ channel: Int, device: Int, gain: Double, enabled: Bool, real: Bool, voiceCoils: Bool,
                 rehearsing: Bool = false) {
        deviceIDs[channel].store(device, ordering: .sequentiallyConsistent)
        gains[channel].store(gain.bitPattern, ordering: .relaxed)
        flags[channel].store((enabled ? 1 : 0) | (real ? 2 : 0) | (voiceCoils ? 4 : 0), ordering: .relaxed)
        let generation = states[channel].load(ordering: .relaxed) >> 2
        let state = rehearsing ? State.rehearsing : State.live
        states[channel].store((generation + 1) << 2 | state.rawValue, ordering: .sequentiallyConsistent)
        if !rehearsing { liveTotal.add(1, ordering: .releasing) }
        // Monotonic maximum; only the control side (under the engine's lock) publishes.
        if channel + 1 > publishedCount.load(ordering: .relaxed) {
            publishedCount.store(channel + 1, ordering: .releasing)
        }
    }

    /// Makes a rehearsing channel live, in the same generation; returns `false` when it was
    /// retired meanwhile. Control side.
    @discardableResult
    func makeLive(_ channel: Int) -> Bool {
        let current = states[channel].load(ordering: .relaxed)
        guard Self.isRehearsing(current) else { return false }
        let (exchanged, _) = states[channel].compareExchange(
            expected: current, desired: current & ~3 | State.live.rawValue, ordering: .sequentiallyConsistent)
        if exchanged { liveTotal.add(1, ordering: .releasing) }
        return exchanged
    }

    /// Retires a live or rehearsing channel; returns `false` when it was neither. Control side.
    @discardableResult
    func retire(_ channel: Int) -> Bool {
        let current = states[channel].load(ordering: .relaxed)
        let wasLive = Self.isLive(current)
        guard wasLive || Self.isRehearsing(current) else { return false }
        let (exchanged, _) = states[channel].compareExchange(
            expected: current, desired: current & ~3 | State.retired.rawValue, ordering: .sequentiallyConsistent)
        if exchanged && wasLive { liveTotal.subtract(1, ordering: .releasing) }
        return exchanged
    }
}
