import HapticsPatterns

extension SoundAnalysis {
    /// How a pattern's transients relate to the intensity and sharpness curves.
    public enum TransientLevels: Sendable, Hashable {
        /// Written so that a player that applies `HapticIntensityControl` and
        /// `HapticSharpnessControl` to transients (Core Haptics, this engine) feels the analysed
        /// values: intensity divided by the curve's value at the hit (at most 1), sharpness minus
        /// the curve's shift. For AHAP.
        case underCurves
        /// The analysed values as they are. For a `.haptic` clip, whose emphasis is absolute.
        case absolute
    }

    /// Control points per curve: Core Haptics documents 16 as the most a curve should hold, so
    /// longer curves are written as several in a row.
    public static let controlPointsPerCurve = 16

    /// The analysis as a pattern: each segment a `HapticContinuous` event (intensity 1,
    /// sharpness 0.5) shaped by `HapticIntensityControl` and `HapticSharpnessControl` curves (the
    /// sharpness curve as a shift from 0.5), both set back to neutral where a segment ends; each
    /// hit a `HapticTransient`; and, with `waveformPath`, the sound itself as an `AudioCustom`
    /// event at time 0, so playing the pattern plays both in step.
    public func pattern(waveformPath: String?, transients levels: TransientLevels = .underCurves) -> Pattern {
        var pattern = Pattern()
        if let waveformPath {
            pattern.events.append(PatternEvent(
                kind: .audioCustom, time: 0, duration: duration, waveformPath: waveformPath,
                parameters: EventParameters(audioVolume: 1)))
        }
        for segment in segments {
            pattern.events.append(PatternEvent(
                kind: .hapticContinuous, time: segment.start, duration: segment.end - segment.start,
                parameters: EventParameters(hapticIntensity: 1, hapticSharpness: 0.5)))
            pattern.curves += Self.curves(.hapticIntensityControl, segment.intensity) { $0 }
            pattern.curves += Self.curves(.hapticSharpnessControl, segment.sharpness) { $0 - 0.5 }
            pattern.parameters.append(DynamicParameter(id: .hapticIntensityControl, time: segment.end, value: 1))
            pattern.parameters.append(DynamicParameter(id: .hapticSharpnessControl, time: segment.end, value: 0))
        }
        let timeline = ParameterTimeline(pattern)
        for transient in transients {
            var intensity = transient.intensity
            var sharpness = transient.sharpness
            if levels == .underCurves {
                let scale = timeline.value(.hapticIntensityControl, at: transient.time) ?? 1
                intensity = scale > 0 ? min(1, intensity / scale) : 1
                sharpness = min(1, max(0, sharpness - (timeline.value(.hapticSharpnessControl, at: transient.time) ?? 0)))
            }
            pattern.events.append(PatternEvent(
                kind: .hapticTransient, time: transient.time,
                parameters: EventParameters(hapticIntensity: Self.rounded(intensity), hapticSharpness: Self.rounded(sharpness))))
        }
        return pattern
    }

    /// `points` as curves of at most ``controlPointsPerCurve`` points each, consecutive curves
    /// sharing their boundary point.
    static func curves(_ id: DynamicParameterID, _ points: [CurvePoint], value: (Double) -> Double) -> [ParameterCurve] {
        var curves: [ParameterCurve] = []
        var first = 0
        while first < points.count - 1 || (first == 0 && points.count == 1) {
            let last = min(points.count - 1, first + controlPointsPerCurve - 1)
            let start = rounded(points[first].time)
            curves.append(ParameterCurve(id: id, time: start, controlPoints: points[first...last].map {
                .init(time: rounded($0.time - start), value: rounded(value($0.value)))
            }))
            if last == first { break }
            first = last
        }
        return curves
    }

    /// Values rounded to 1/10 000, so the written pattern is short and the same on every machine.
    static func rounded(_ value: Double) -> Double { (value * 10_000).rounded() / 10_000 }
}

extension Pattern {
    /// What a pattern file's entry limit counts: events, parameters and curves.
    var entryCount: Int { events.count + parameters.count + curves.count }
}
