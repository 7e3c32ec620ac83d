/// Per-tick levels of all events, combined as they are added: intensities sum and saturate at 1
/// (as the kernel mixes playing effects), sharpness is the intensity-weighted mean.
struct TickTimeline: Sendable {
    struct Level: Sendable, Hashable {
        var summedIntensity: Double = 0
        var weightedSharpness: Double = 0

        /// The combined intensity, saturated at 1.
        var intensity: Double { min(1, summedIntensity) }

        /// The intensity-weighted mean sharpness (0 when nothing sounds).
        var sharpness: Double { summedIntensity > 0 ? min(1, max(0, weightedSharpness / summedIntensity)) : 0 }
    }

    private var levels: [Int64: Level] = [:]

    mutating func add(intensity: Double, sharpness: Double, at tick: Int64) {
        // NaN and negative intensities count as silence.
        let loudness = intensity > 0 ? min(intensity, 1) : 0
        var level = levels[tick] ?? Level()
        level.summedIntensity += loudness
        level.weightedSharpness += loudness * sharpness
        levels[tick] = level
    }

    func sortedLevels() -> [(tick: Int64, level: Level)] {
        levels.sorted { $0.key < $1.key }.map { (tick: $0.key, level: $0.value) }
    }
}
