import HapticsPatterns
import HapticsSystem

/// One dynamic parameter over pattern time as straight segments, read sample by sample without a
/// lookup per sample: the pattern's steps and curves flattened once, on the control side.
///
/// Between two consecutive times at which a source starts or a curve has a point, the value a
/// ``ParameterTimeline`` gives is linear; each segment keeps its start value and its slope, read
/// from the timeline at the segment's start and middle (so a step's jump lands exactly on its time).
/// Values are clamped to `range` after interpolation, as the rumble renderer clamps them.
struct _ControlTrack: ~Copyable {
    /// A segment from `start` (seconds) to the next segment's start.
    struct Segment {
        var start: Double
        var value: Double
        var slope: Double
    }

    private let segments: FixedArray<Segment>
    private let range: ClosedRange<Double>

    /// The track of `id` in `timeline`; `neutral` before any source (and throughout when there is none).
    init(_ id: DynamicParameterID, of pattern: Pattern, timeline: ParameterTimeline, neutral: Double, range: ClosedRange<Double>) {
        self.range = range
        guard timeline.drives(id) else {
            segments = FixedArray(repeating: Segment(start: -.infinity, value: neutral, slope: 0), count: 1)
            return
        }
        var times: [Double] = []
        for parameter in pattern.parameters where parameter.id == id { times.append(parameter.time) }
        for curve in pattern.curves where curve.id == id {
            times.append(curve.time)
            for point in curve.controlPoints { times.append(curve.time + point.time) }
        }
        times = Array(Set(times.filter(\.isFinite))).sorted()
        var list = [Segment(start: -.infinity, value: timeline.value(id, at: times[0] - 1) ?? neutral, slope: 0)]
        for (index, start) in times.enumerated() {
            let value = timeline.value(id, at: start) ?? neutral
            var slope = 0.0
            if index + 1 < times.count {
                let half = (times[index + 1] - start) / 2
                let middle = timeline.value(id, at: start + half) ?? neutral
                if half > 0 { slope = (middle - value) / half }
            }
            list.append(Segment(start: start, value: value, slope: slope))
        }
        segments = FixedArray(count: list.count) { list[$0] }
    }

    /// Writes the value at `(first + index + 0.5) / rate` seconds for each index of `output`:
    /// one binary search, then a walk forward.
    func fill(_ output: UnsafeMutablePointer<Double>, count: Int, firstFrame first: Int64, rate: Double) {
        var low = 0
        var high = segments.count
        let start = (Double(first) + 0.5) / rate
        while low < high {
            let middle = (low + high) / 2
            if segments.base[middle].start <= start { low = middle + 1 } else { high = middle }
        }
        var segment = max(0, low - 1)
        for index in 0..<count {
            let time = (Double(first + Int64(index)) + 0.5) / rate
            while segment + 1 < segments.count && segments.base[segment + 1].start <= time { segment += 1 }
            let current = segments.base[segment]
            let value = current.slope == 0 ? current.value : current.value + current.slope * (time - current.start)
            output[index] = value == value ? min(max(value, range.lowerBound), range.upperBound) : range.lowerBound
        }
    }
}
