#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import HapticsPatterns

/// The values of a pattern's haptic dynamic parameters over time, as rendering applies them.
///
/// The values come from `ParameterTimeline` (the one reading of steps and curves); before any
/// source, the neutral value applies (intensity ×1, sharpness +0, time controls 0).
package struct DynamicControls: Sendable {
    private let timeline: ParameterTimeline

    package init(_ pattern: Pattern) {
        timeline = ParameterTimeline(pattern)
    }

    /// Multiplier of haptic intensity at `time`, 0…1.
    package func intensityScale(at time: Double) -> Double {
        Self.clamp(value(.hapticIntensityControl, at: time) ?? 1, 0, 1)
    }

    /// Shift of haptic sharpness at `time`, −1…1.
    package func sharpnessShift(at time: Double) -> Double {
        Self.clamp(value(.hapticSharpnessControl, at: time) ?? 0, -1, 1)
    }

    /// Factor on an envelope time: `10 ^ value` with the control clamped to −1…1, so −1 makes the
    /// time ten times shorter, +1 ten times longer and 0 leaves it.
    package func timeScale(_ id: DynamicParameterID, at time: Double) -> Double {
        let exponent = Self.clamp(value(id, at: time) ?? 0, -1, 1)
        if exponent == 0 { return 1 }
        return Self.powerOfTen(exponent)
    }

    /// The raw value of a parameter at a time, or `nil` before its first source.
    package func value(_ id: DynamicParameterID, at time: Double) -> Double? {
        timeline.value(id, at: time)
    }

    package static func clamp(_ value: Double, _ low: Double, _ high: Double) -> Double {
        guard value == value else { return low }
        return min(max(value, low), high)
    }

    private static func powerOfTen(_ exponent: Double) -> Double {
        pow(10, exponent)
    }
}
