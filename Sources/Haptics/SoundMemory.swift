import HapticsAudio
import HapticsSystem
import Synchronization

/// The engine's sound budget: what the sound of its pattern players and its cues holds, against
/// `Configuration.soundBudget`, so that many patterns loaded together are bounded as one pattern is.
///
/// Loads are serialized, so the room a load was given is still there when it is charged (a
/// charge released meanwhile only adds room); a charge is held by what it pays for and given back
/// when that goes away.
final class SoundMemory: Sendable {
    /// The budget, in bytes.
    let limit: Int
    private let used = OrderedMutex<Int>(0)
    private let loading = OrderedMutex<Void>(())

    init(limit: Int) {
        self.limit = limit
    }

    /// Bytes held now.
    var inUse: Int { used.withLock { $0 } }

    /// The engine's budget with what is free now.
    private var budget: AudioMemoryBudget {
        AudioMemoryBudget(scope: .engine, limit: limit, available: limit - inUse)
    }

    /// Runs `load` with the engine's budget as it stands, then charges what the result holds
    /// (`cost`); no other load runs meanwhile. Control side: may take as long as the load.
    func load<Loaded, Failure: Error>(
        _ load: (AudioMemoryBudget) throws(Failure) -> Loaded, cost: (Loaded) -> Int
    ) throws(Failure) -> (Loaded, SoundMemoryCharge) {
        try loading.withLock { _ throws(Failure) -> (Loaded, SoundMemoryCharge) in
            let loaded = try load(budget)
            return (loaded, charge(cost(loaded)))
        }
    }

    /// Charges `bytes` whatever is left: for sound already accepted that cannot fail later (the
    /// cues an app gives, a clip converted to a rate learnt after it was loaded).
    func charge(_ bytes: Int) -> SoundMemoryCharge {
        take(bytes)
        return SoundMemoryCharge(memory: self, bytes: bytes)
    }

    fileprivate func take(_ bytes: Int) {
        used.withLock { $0 += bytes }
    }

    fileprivate func release(_ bytes: Int) {
        used.withLock { $0 -= bytes }
    }
}

/// Bytes of the engine's sound budget held by one thing — a player's sound, the cues — given back
/// when it goes away.
final class SoundMemoryCharge: Sendable {
    private let memory: SoundMemory
    private let bytes: OrderedMutex<Int>

    fileprivate init(memory: SoundMemory, bytes: Int) {
        self.memory = memory
        self.bytes = OrderedMutex(bytes)
    }

    /// The bytes held.
    var byteCount: Int { bytes.withLock { $0 } }

    /// Holds `more` bytes too, whatever is left (see `SoundMemory.charge`).
    func add(_ more: Int) {
        memory.take(more)
        bytes.withLock { $0 += more }
    }

    deinit {
        memory.release(bytes.withLock { $0 })
    }
}
