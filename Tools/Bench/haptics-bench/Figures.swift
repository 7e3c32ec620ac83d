import Glibc

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

/// `value` rounded to `digits` decimals, as JSON text.
func decimal(_ value: Double, _ digits: Int = 3) -> String {
    let scale = pow(10.0, Double(digits))
    let rounded = (value * scale).rounded() / scale
    return rounded == rounded.rounded() ? String(Int64(rounded)) : String(rounded)
}

/// Nanoseconds as microseconds, for JSON.
func microseconds(_ nanoseconds: Int64) -> String {
    decimal(Double(nanoseconds) / 1_000)
}

/// One JSON object with keys in the given order (values are already JSON text).
func jsonObject(_ pairs: [(String, String)]) -> String {
    "{" + pairs.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
}
