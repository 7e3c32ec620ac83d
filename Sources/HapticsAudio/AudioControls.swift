#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import HapticsPatterns

/// The values of a pattern's audio dynamic parameters (`Audio*Control`) over pattern time.
///
/// Same reading as for the haptic controls (docs/rendering.md): for each parameter the most recently
/// started source wins; a step `Parameter` holds its value from its time on; a `ParameterCurve`
/// holds its first point until that point, interpolates linearly between points and holds the last
/// one after. Before any source the neutral value applies: volume ×1, pitch/pan/brightness +0,
/// time controls 0 (×1).
struct AudioControls: Sendable {
    private struct Source: Sendable {
        var start: Double
        var order: Int
        var points: [ParameterCurve.ControlPoint]
    }

    private var sources: [DynamicParameterID: [Source]] = [:]

    init(_ pattern: Pattern) {
        var order = 0
        for parameter in pattern.parameters where parameter.time.isFinite && parameter.value.isFinite {
            sources[parameter.id, default: []].append(
                Source(start: parameter.time, order: order, points: [.init(time: 0, value: parameter.value)]))
            order += 1
        }
        for curve in pattern.curves where curve.time.isFinite {
            let points = curve.controlPoints
                .filter { $0.time.isFinite && $0.value.isFinite }
                .enumerated()
                .sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
                .map(\.element)
            guard !points.isEmpty else { continue }
            sources[curve.id, default: []].append(Source(start: curve.time, order: order, points: points))
            order += 1
        }
        for id in sources.keys {
            sources[id]?.sort { ($0.start, $0.order) < ($1.start, $1.order) }
        }
    }

    /// Whether `id` has any source (lets the synthesizer skip per-sample work for absent controls).
    func drives(_ id: DynamicParameterID) -> Bool { sources[id] != nil }

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
        guard let list = sources[id] else { return nil }
        var current: Source?
        for source in list where source.start <= time { current = source }
        guard let source = current else { return nil }
        let local = time - source.start
        let points = source.points
        if local <= points[0].time { return points[0].value }
        for index in 1..<points.count where local <= points[index].time {
            let from = points[index - 1]
            let to = points[index]
            let span = to.time - from.time
            guard span > 0 else { return to.value }
            return from.value + (to.value - from.value) * (local - from.time) / span
        }
        return points[points.count - 1].value
    }

    static func clamp(_ value: Double, _ low: Double, _ high: Double) -> Double {
        guard value == value else { return low }
        return min(max(value, low), high)
    }
}
