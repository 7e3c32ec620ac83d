import CHapticsABI
import Haptics
import HapticsSystem
import Synchronization

/// What a C handle points at: a Swift object whose first stored word is a tag saying which kind of
/// handle it is, so that a pointer of the wrong kind (a player given as an engine, garbage with a
/// plausible address) is refused with -EBADF instead of being used. The tag is read from the raw
/// memory before the object is touched; a freed handle has its tag cleared first.
protocol CHandle: AnyObject {
    static var tag: UInt64 { get }
    var tagWord: UInt64 { get set }
}

extension CHandle {
    /// The object behind `pointer`, or `nil` when it is not a live handle of this kind.
    static func from(_ pointer: OpaquePointer?) -> Self? {
        guard let pointer else { return nil }
        let raw = UnsafeRawPointer(pointer)
        // The tag is the first stored property: after the object header (metadata, reference counts).
        guard raw.load(fromByteOffset: CHandleLayout.tagOffset, as: UInt64.self) == tag else { return nil }
        return Unmanaged<Self>.fromOpaque(raw).takeUnretainedValue()
    }

    /// A new handle for the caller to own (one retain, given back by `release`).
    func retainedPointer() -> OpaquePointer {
        OpaquePointer(Unmanaged.passRetained(self).toOpaque())
    }

    /// Gives back the caller's handle: the tag is cleared first, so later use is refused while the
    /// memory is still there.
    static func release(_ pointer: OpaquePointer) {
        guard let object = from(pointer) else { return }
        object.tagWord = 0
        Unmanaged<Self>.fromOpaque(UnsafeRawPointer(pointer)).release()
    }
}

enum CHandleLayout {
    /// Where a class instance's first stored property lies: after the metadata pointer and the
    /// reference counts, two words on every 64-bit platform Swift runs on.
    static let tagOffset = 2 * MemoryLayout<UInt>.size
}

/// The engine behind a `haptics_engine *`, and the events it has delivered for `haptics_poll_event`.
final class CEngine: CHandle, @unchecked Sendable {
    static let tag: UInt64 = 0x4548_4150_5449_4353  // "SCITPAHE"
    var tagWord: UInt64 = CEngine.tag
    let engine: HapticEngine
    let events = EventQueue()

    init(engine: HapticEngine) {
        self.engine = engine
        engine.setEventHandler { [events] event in events.append(.engine(event)) }
    }
}

/// The player behind a `haptics_player *`.
final class CPlayer: CHandle, @unchecked Sendable {
    static let tag: UInt64 = 0x5048_4150_5449_4353  // "SCITPAHP"
    var tagWord: UInt64 = CPlayer.tag
    let player: HapticPatternPlayer

    /// A player whose completions are queued on its engine's events, named by the handle's address.
    init(player: HapticPatternPlayer, events: EventQueue) {
        self.player = player
        let address = UInt(bitPattern: Unmanaged.passUnretained(self).toOpaque())
        player.completionHandler = { [events] completion in events.append(.player(address: address, completion)) }
    }
}

/// What `haptics_poll_event` hands out: the engine's events, and pattern players' completions.
enum CEvent: Sendable {
    case engine(HapticEngine.Event)
    /// A start of the player at `address` (its handle) ended.
    case player(address: UInt, PlayerCompletion)
}

/// The last `capacity` events, oldest first; what was pushed out is counted. At most 256 entries,
/// on the control side: removing from the front is cheap enough.
struct EventRing {
    let capacity: Int
    private var events: [CEvent] = []
    private var lost = 0

    init(capacity: Int) {
        self.capacity = capacity
        events.reserveCapacity(capacity + 1)
    }

    mutating func append(_ event: CEvent) {
        events.append(event)
        if events.count > capacity {
            events.removeFirst()
            lost += 1
        }
    }

    /// The count of events lost since the last call, then zero.
    mutating func takeLost() -> Int {
        defer { lost = 0 }
        return lost
    }

    mutating func popFirst() -> CEvent? {
        events.isEmpty ? nil : events.removeFirst()
    }
}

/// The events an engine delivered, waiting for `haptics_poll_event`: the last 256, under a lock
/// only the engine's control-side threads and the poller take.
final class EventQueue: Sendable {
    private let ring = OrderedMutex(EventRing(capacity: 256))

    func append(_ event: CEvent) {
        ring.withLock { $0.append(event) }
    }

    /// How many events were pushed out since the last call, or else the oldest event.
    func take() -> (lost: Int, event: CEvent?) {
        ring.withLock { ring in
            let lost = ring.takeLost()
            return (lost, lost > 0 ? nil : ring.popFirst())
        }
    }
}

/// A `haptics_engine *` for an engine made in Swift, for programs that measure the C interface in
/// process (the trigger benchmark drives a manually clocked engine through it). The caller owns the
/// handle: `haptics_engine_free` gives it back (and stops the engine). Not exported by libhaptics.so.
package func _hapticsEngineHandle(for engine: HapticEngine) -> OpaquePointer {
    CEngine(engine: engine).retainedPointer()
}
