/// Formats numbers with a fixed count of decimals, identically on every platform and locale, so
/// plots can be compared byte for byte.
enum FixedDecimal {
    /// `value` rounded half away from zero to `digits` decimals (`0.475` with 2 → `"0.48"`, never `"-0"`).
    static func format(_ value: Double, digits: Int) -> String {
        var factor: Double = 1
        for _ in 0..<digits { factor *= 10 }
        let scaled = Int64((value * factor).rounded(.toNearestOrAwayFromZero))
        let negative = scaled < 0
        let magnitude = scaled.magnitude
        let unit = UInt64(factor)
        var text = String(magnitude / unit)
        if digits > 0 {
            let fraction = String(magnitude % unit)
            text += "." + String(repeating: "0", count: digits - fraction.count) + fraction
        }
        return negative ? "-" + text : text
    }

    /// `value` with at most `digits` decimals and no trailing zeros (`0.50` → `"0.5"`, `1.00` → `"1"`).
    static func trimmed(_ value: Double, digits: Int) -> String {
        var text = format(value, digits: digits)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text
    }
}
