/// Numbers as text, written the same way on every platform and in every locale by every module
/// that prints one: diagnostics, JSON lines, plot labels.
public enum NumberText {
    /// The shortest text that reads back as exactly `value`, whole numbers without a fraction:
    /// `1`, `0.25`, `-3.5`, `1e-07`, `1e+16` (non-finite values: `nan`, `inf`, `-inf`).
    public static func shortest(_ value: Double) -> String {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 {
            return value == 0 ? "0" : String(Int64(value))
        }
        return value.description
    }

    /// `value` rounded half away from zero to at most `digits` decimals, trailing zeros and a
    /// trailing point dropped, never `-0`: `0.5`, `12`, `-3.25` (with 3 digits, 0.0004 is `0`).
    /// Values too large for that many decimals, and non-finite ones, are written as
    /// ``shortest(_:)`` writes them.
    public static func decimal(_ value: Double, digits: Int) -> String {
        guard let text = fixedOrNil(value, digits: digits) else { return shortest(value) }
        guard text.contains(".") else { return text }
        var trimmed = Substring(text)
        while trimmed.hasSuffix("0") { trimmed.removeLast() }
        if trimmed.hasSuffix(".") { trimmed.removeLast() }
        return String(trimmed)
    }

    /// `value` rounded half away from zero to exactly `digits` decimals, never `-0`: with 2
    /// digits, `0.48`, `1.00`, `-0.10`. Values too large for that many decimals, and non-finite
    /// ones, are written as ``shortest(_:)`` writes them.
    public static func fixed(_ value: Double, digits: Int) -> String {
        fixedOrNil(value, digits: digits) ?? shortest(value)
    }

    /// The fixed-decimals text, or `nil` when `value × 10^digits` does not fit an `Int64`.
    private static func fixedOrNil(_ value: Double, digits: Int) -> String? {
        let digits = max(0, digits)
        var factor: Double = 1
        for _ in 0..<digits { factor *= 10 }
        let scaled = (value * factor).rounded(.toNearestOrAwayFromZero)
        guard scaled.isFinite, abs(scaled) < 9.2e18, factor < 9.2e18 else { return nil }
        let units = Int64(scaled)
        let unit = UInt64(factor)
        let magnitude = units.magnitude
        var text = String(magnitude / unit)
        if digits > 0 {
            let fraction = String(magnitude % unit)
            text += "." + String(repeating: "0", count: digits - fraction.count) + fraction
        }
        return units < 0 ? "-" + text : text
    }
}
