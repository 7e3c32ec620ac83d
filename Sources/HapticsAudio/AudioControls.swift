#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import HapticsPatterns

/// The values of a pattern's audio dynamic parameters (`Audio*Control`) over pattern time.
///
/// The same reading as for the haptic controls: `ParameterTimeline`. Before any source the neutral
/// value applies: volume ×1, pitch/pan/brightness +0, time controls 0 (×1).
struct AudioControls: Sendable {
    private let timeline: ParameterTimeline

    init(_ pattern: Pattern) {
        timeline = ParameterTimeline(pattern)
    }

    /// Whether `id` has any source (lets the synthesizer skip per-sample work for absent controls).
    func drives(_ id: DynamicParameterID) -> Bool { timeline.drives(id) }

    /// Multiplier of audio volume at `time`, 0…1.
    func volumeScale(at time: Double) -> Double { Self.clamp(value(.audioVolumeControl, at: time) ?? 1, 0, 1) }
    /// Shift of audio pitch at `time`, −1…1.
    func pitchShift(at time: Double) -> Double { Self.clamp(value(.audioPitchControl, at: time) ?? 0, -1, 1) }
    /// Shift of audio pan at `time`, −1…1.
    func panShift(at time: Double) -> Double { Self.clamp(value(.audioPanControl, at: time) ?? 0, -1, 1) }
    /// Shift of audio brightness at `time`, −1…1.
    func brightnessShift(at time: Double) -> Double {
        Self.clamp(value(.audioBrightnessControl, at: time) ?? 0, -1, 1)
    }

    /// Factor on an envelope time: 10 ^ value, the control clamped to −1…1 (as for haptics).
    func timeScale(_ id: DynamicParameterID, at time: Double) -> Double {
        let exponent = Self.clamp(value(id, at: time) ?? 0, -1, 1)
        return exponent == 0 ? 1 : pow(10, exponent)
    }

    /// The raw value of a parameter at a time, or `nil` before its first source.
    func value(_ id: DynamicParameterID, at time: Double) -> Double? {
        timeline.value(id, at: time)
    }

    static func clamp(_ value: Double, _ low: Double, _ high: Double) -> Double {
        guard value == value else { return low }
        return min(max(value, low), high)
    }
}
