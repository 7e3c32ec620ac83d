#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The continuous haptic level and sharpness a pattern asks for over time, as one signal: what a
/// format with a single envelope (a `.haptic` clip) holds.
///
/// The reading is the renderer's, in continuous time instead of ticks (docs/internals/rendering.md): each
/// `HapticContinuous` event contributes its intensity × its envelope × `HapticIntensityControl`;
/// overlapping events add and saturate at 1; the sharpness is the intensity-weighted mean of the
/// events' sharpness + `HapticSharpnessControl`; attack, decay and release controls scale the
/// times by `10 ^ value` taken at the onset. Transients are kept apart (`transients`) with their
/// own intensity and sharpness: a clip's emphasis is absolute, played apart from the envelope, as
/// Lofelt's players and converters treat it (see docs/reference/formats.md, "What is lost").
struct FeltLevels {
    /// One continuous event, resolved.
    struct Layer {
        var start: Double
        var end: Double
        var intensity: Double
        var sharpness: Double
        var envelope: EventEnvelope
    }

    /// A transient, its values clamped to 0…1.
    struct Transient {
        var time: Double
        var intensity: Double
        var sharpness: Double
    }

    let layers: [Layer]
    let transients: [Transient]
    private let timeline: ParameterTimeline
    /// Every time at which the signal may bend or jump, sorted, without duplicates.
    let criticalTimes: [Double]

    init(_ pattern: Pattern) {
        let timeline = ParameterTimeline(pattern)
        self.timeline = timeline
        var layers: [Layer] = []
        var transients: [Transient] = []
        var times: [Double] = []
        func control(_ id: DynamicParameterID, at time: Double) -> Double {
            let exponent = Self.clamp(timeline.value(id, at: time) ?? 0, -1, 1)
            return exponent == 0 ? 1 : pow(10, exponent)
        }
        for event in pattern.events where event.time.isFinite && event.time >= 0 {
            let parameters = event.parameters
            switch event.kind {
            case .hapticTransient:
                let time = Self.snapped(event.time)
                transients.append(Transient(
                    time: time,
                    intensity: Self.clamp(parameters.resolvedIntensity, 0, 1),
                    sharpness: Self.clamp(parameters.resolvedSharpness, 0, 1)))
                times.append(time)
            case .hapticContinuous:
                let duration = event.resolvedDuration
                let start = Self.snapped(event.time)
                let end = Self.snapped(event.time + duration)
                guard duration.isFinite, end > start else { continue }
                let envelope = EventEnvelope(
                    duration: end - start,
                    attack: Self.seconds(parameters.resolvedAttackTime) * control(.hapticAttackTimeControl, at: event.time),
                    decay: Self.seconds(parameters.resolvedDecayTime) * control(.hapticDecayTimeControl, at: event.time),
                    release: Self.seconds(parameters.resolvedReleaseTime) * control(.hapticReleaseTimeControl, at: event.time),
                    sustained: parameters.resolvedSustained)
                let layer = Layer(
                    start: start, end: end,
                    intensity: Self.clamp(parameters.resolvedIntensity, 0, 1),
                    sharpness: Self.clamp(parameters.resolvedSharpness, 0, 1), envelope: envelope)
                layers.append(layer)
                times += [layer.start, layer.end]
                if envelope.attack > 0 { times.append(Self.snapped(layer.start + envelope.attack)) }
                if !envelope.sustained, envelope.decay > 0 {
                    times.append(Self.snapped(layer.start + envelope.attack + envelope.decay))
                }
                if envelope.release > 0 { times.append(Self.snapped(layer.end - envelope.release)) }
            case .audioCustom, .audioContinuous:
                continue
            }
        }
        for parameter in pattern.parameters where parameter.id == .hapticIntensityControl || parameter.id == .hapticSharpnessControl {
            times.append(Self.snapped(parameter.time))
        }
        for curve in pattern.curves where curve.id == .hapticIntensityControl || curve.id == .hapticSharpnessControl {
            times.append(Self.snapped(curve.time))
            for point in curve.controlPoints { times.append(Self.snapped(curve.time + point.time)) }
        }
        let end = (layers.map(\.end) + transients.map(\.time)).max() ?? 0
        var sorted = times.filter { $0.isFinite && $0 >= 0 && $0 <= end }.sorted()
        var unique: [Double] = []
        for time in sorted where unique.last != time { unique.append(time) }
        sorted = unique
        self.layers = layers.sorted { $0.start < $1.start }
        self.transients = transients
        self.criticalTimes = sorted
    }

    /// The level (0…1) and sharpness (nil when nothing sounds) of `active` layers at `time`; the
    /// controls are read at `controlTime` (just before `time` for a left limit).
    func sample(_ active: [Layer], at time: Double, controlTime: Double) -> (level: Double, sharpness: Double?) {
        var level = 0.0
        var weighted = 0.0
        let scale = Self.intensityScale(timeline, at: controlTime)
        let shift = Self.sharpnessShift(timeline, at: controlTime)
        for layer in active {
            let contribution = layer.intensity * layer.envelope.gain(at: time - layer.start) * scale
            level += contribution
            weighted += contribution * Self.clamp(layer.sharpness + shift, 0, 1)
        }
        guard !active.isEmpty else { return (0, nil) }
        // With every layer at 0 (an attack's first instant) the plain mean still says how it will feel.
        let sharpness = level > 0
            ? weighted / level
            : active.map { Self.clamp($0.sharpness + shift, 0, 1) }.reduce(0, +) / Double(active.count)
        return (min(1, level), sharpness)
    }

    /// An envelope time as the renderer reads it: negative and non-finite values are 0.
    static func seconds(_ value: Double) -> Double {
        value.isFinite && value > 0 ? value : 0
    }

    /// Half the grid's step: the limits of the controls at a breakpoint are read this far to
    /// either side, so that a curve point a rounding error away from the instant (a curve's start
    /// plus a relative time) still counts as at it.
    static let instant = 0.5e-9

    /// `time` on the nanosecond grid, as the renderer places events: 0.1 + 0.2 and 0.3 are one
    /// instant, not two breakpoints a rounding error apart.
    static func snapped(_ time: Double) -> Double {
        guard time.isFinite, abs(time) < 9e9 else { return time }
        return (time * 1e9).rounded() / 1e9
    }

    private static func intensityScale(_ timeline: ParameterTimeline, at time: Double) -> Double {
        clamp(timeline.value(.hapticIntensityControl, at: time) ?? 1, 0, 1)
    }

    private static func sharpnessShift(_ timeline: ParameterTimeline, at time: Double) -> Double {
        clamp(timeline.value(.hapticSharpnessControl, at: time) ?? 0, -1, 1)
    }

    static func clamp(_ value: Double, _ low: Double, _ high: Double) -> Double {
        guard value == value else { return low }
        return min(max(value, low), high)
    }
}
