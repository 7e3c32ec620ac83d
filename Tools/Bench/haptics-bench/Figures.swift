import Glibc
import HapticsPatterns

/// The value below which `fraction` of the sorted samples fall (nearest rank).
func percentile(_ sorted: [Int64], _ fraction: Double) -> Int64 {
    precondition(!sorted.isEmpty, "percentile of no samples")
    let rank = Int((fraction * Double(sorted.count - 1)).rounded())
    return sorted[min(max(rank, 0), sorted.count - 1)]
}

/// Least-squares slope of `y` against `x`.
func slope(x: [Double], y: [Double]) -> Double {
    let count = Double(x.count)
    let meanX = x.reduce(0, +) / count
    let meanY = y.reduce(0, +) / count
    var covariance = 0.0
    var variance = 0.0
    for index in x.indices {
        covariance += (x[index] - meanX) * (y[index] - meanY)
        variance += (x[index] - meanX) * (x[index] - meanX)
    }
    return variance == 0 ? 0 : covariance / variance
}

/// `value` rounded to at most `digits` decimals, as JSON text (`null` when not finite).
func decimal(_ value: Double, _ digits: Int = 3) -> String {
    value.isFinite ? NumberText.decimal(value, digits: digits) : "null"
}

/// Nanoseconds as microseconds, for JSON.
func microseconds(_ nanoseconds: Int64) -> String {
    decimal(Double(nanoseconds) / 1_000)
}

/// One JSON object with keys in the given order (values are already JSON text).
func jsonObject(_ pairs: [(String, String)]) -> String {
    "{" + pairs.map { "\(JSONString.quoted($0.0)): \($0.1)" }.joined(separator: ", ") + "}"
}

/// `measure(side)` for each of `sides`: `warmUp` calls each, not kept, then `blocks` blocks of
/// `perBlock` calls per side, the sides' order reversed every other block so that a drift of the
/// machine weighs on all of them alike.
func interleavedSamples(_ sides: [String], warmUp: Int = 5, blocks: Int = 6, perBlock: Int = 20,
                        _ measure: (String) -> Int64) -> [String: [Int64]] {
    for side in sides { for _ in 0..<warmUp { _ = measure(side) } }
    var samples: [String: [Int64]] = [:]
    for block in 0..<blocks {
        for side in (block % 2 == 0 ? sides : sides.reversed()) {
            for _ in 0..<perBlock { samples[side, default: []].append(measure(side)) }
        }
    }
    return samples
}
