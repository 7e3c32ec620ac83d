/// Per-tick levels of all events, combined as they are added: intensities sum and saturate at 1
/// (as the kernel mixes playing effects), sharpness is the intensity-weighted mean.
///
/// Ticks are kept in chunks of 256 consecutive ticks, made as events reach them: memory follows
/// the ticks that sound, and the run of adds a continuous event makes stays in one chunk at a time
/// (the last chunk used is remembered, so such a run looks nothing up).
struct TickTimeline: Sendable {
    struct Level: Sendable, Hashable {
        var summedIntensity: Double = 0
        var weightedSharpness: Double = 0
        /// Whether any event reached this tick (a tick reached only by silence still counts).
        var reached = false

        /// The combined intensity, saturated at 1.
        var intensity: Double { min(1, summedIntensity) }

        /// The intensity-weighted mean sharpness (0 when nothing sounds).
        var sharpness: Double { summedIntensity > 0 ? min(1, max(0, weightedSharpness / summedIntensity)) : 0 }
    }

    private static let chunkShift: Int64 = 8
    private static let chunkSize = 1 << 8

    /// Where each chunk starts in `storage`, by chunk number (tick >> chunkShift).
    private var chunkStarts: [Int64: Int] = [:]
    private var storage: [Level] = []
    private var lastChunk: Int64 = -1
    private var lastStart = 0

    mutating func add(intensity: Double, sharpness: Double, tick: Int64) {
        // NaN and negative intensities count as silence.
        let loudness = intensity > 0 ? min(intensity, 1) : 0
        let chunk = tick >> Self.chunkShift
        if chunk != lastChunk {
            if let start = chunkStarts[chunk] {
                lastStart = start
            } else {
                lastStart = storage.count
                chunkStarts[chunk] = lastStart
                storage.append(contentsOf: repeatElement(Level(), count: Self.chunkSize))
            }
            lastChunk = chunk
        }
        let index = lastStart + Int(tick & Int64(Self.chunkSize - 1))
        storage[index].summedIntensity += loudness
        storage[index].weightedSharpness += loudness * sharpness
        storage[index].reached = true
    }

    /// The reached ticks in order, with their levels.
    func sortedLevels() -> [(tick: Int64, level: Level)] {
        var result: [(tick: Int64, level: Level)] = []
        for (chunk, start) in chunkStarts.sorted(by: { $0.key < $1.key }) {
            for offset in 0..<Self.chunkSize where storage[start + offset].reached {
                result.append((tick: chunk << Self.chunkShift + Int64(offset), level: storage[start + offset]))
            }
        }
        return result
    }
}
