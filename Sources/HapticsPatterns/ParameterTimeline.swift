/// The values of a pattern's dynamic parameters over pattern time — one reading of `Parameter` and
/// `ParameterCurve` entries shared by haptic rendering and audio rendering.
///
/// For each parameter the most recently started source wins: a step `Parameter` holds its value
/// from its time on; a `ParameterCurve` holds its first point's value until that point, interpolates
/// linearly between points and holds the last value after the last point. When a step and a curve
/// start at the same time, the one later in the pattern wins. Before any source there is no value
/// (`nil`): each consumer applies its own neutral value. Non-finite times and values are skipped.
public struct ParameterTimeline: Sendable {
    /// One source of values for one parameter.
    private struct Source: Sendable {
        var start: Double
        var order: Int
        var points: [ParameterCurve.ControlPoint]  // one point at offset 0 for a step
    }

    private var sources: [DynamicParameterID: [Source]] = [:]

    /// Collects the parameters and curves of `pattern`.
    public init(_ pattern: Pattern) {
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

    /// Whether `id` has any source (lets per-sample consumers skip absent controls).
    public func drives(_ id: DynamicParameterID) -> Bool { sources[id] != nil }

    /// The raw value of a parameter at `time` (seconds of pattern time), or `nil` before its first source.
    public func value(_ id: DynamicParameterID, at time: Double) -> Double? {
        guard let list = sources[id] else { return nil }
        // The last source started at or before `time` (sorted by start, then order): a binary
        // search, as rendering asks once per tick of every event and a file may hold thousands.
        var low = 0
        var high = list.count
        while low < high {
            let middle = (low + high) / 2
            if list[middle].start <= time { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return nil }
        let source = list[low - 1]
        return ParameterCurve.interpolate(sorted: source.points, at: time - source.start)
    }
}

extension ParameterCurve {
    /// The curve's value `offset` seconds after its own start: its first point's value before that
    /// point, linear between points, the last point's value after the last.
    public func value(atOffset offset: Double) -> Double {
        guard !controlPoints.isEmpty else { return 0 }
        return Self.interpolate(controlPoints, at: offset)
    }

    /// Linear interpolation over non-empty `points` as given, held flat outside them: between the
    /// first point later than or at `offset` and the one before it.
    static func interpolate(_ points: [ControlPoint], at offset: Double) -> Double {
        if offset <= points[0].time { return points[0].value }
        for index in 1..<points.count where offset <= points[index].time {
            return between(points[index - 1], points[index], at: offset)
        }
        return points[points.count - 1].value
    }

    /// `interpolate(_:at:)` over points sorted by time, by binary search.
    static func interpolate(sorted points: [ControlPoint], at offset: Double) -> Double {
        if offset <= points[0].time { return points[0].value }
        // The first point at or after `offset` (a binary search: a curve may hold 4,096 points).
        var low = 1
        var high = points.count
        while low < high {
            let middle = (low + high) / 2
            if points[middle].time < offset { low = middle + 1 } else { high = middle }
        }
        guard low < points.count else { return points[points.count - 1].value }
        return between(points[low - 1], points[low], at: offset)
    }

    private static func between(_ from: ControlPoint, _ to: ControlPoint, at offset: Double) -> Double {
        let span = to.time - from.time
        guard span > 0 else { return to.value }
        return from.value + (to.value - from.value) * (offset - from.time) / span
    }
}
