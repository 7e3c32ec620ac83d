import HapticsPatterns

/// The audio controls that move a voice at every sample — `AudioVolumeControl`,
/// `AudioPitchControl`, `AudioPanControl`, `AudioBrightnessControl` — laid out once, when a
/// pattern's voices are made, in storage the audio thread reads without allocating or locking.
///
/// The reading is `ParameterTimeline`'s, to the bit (a test compares them): per control the most
/// recently started source wins, a step holds its value, a curve interpolates between its points.
/// Each voice walks the sources and points with its own cursor (``_ControlCursor``); since a voice
/// is rendered forward in time, a cursor only moves forward, so a frame costs O(1) amortized
/// instead of a scan of every source.
final class _ControlCurves: @unchecked Sendable {
    /// One source of one control: a step (one point at offset 0) or a curve.
    struct Source {
        var start: Double
        var firstPoint: Int
        var pointCount: Int
    }

    /// A point of a source, at `time` seconds after the source's start.
    struct Point {
        var time: Double
        var value: Double
    }

    /// The controls read at every sample, in ``Table`` order.
    static let controls: [DynamicParameterID] = [
        .audioVolumeControl, .audioPitchControl, .audioPanControl, .audioBrightnessControl,
    ]

    /// What the audio thread reads: plain pointers into the storage.
    let table: _ControlTable
    private let sources: UnsafeMutablePointer<Source>
    private let points: UnsafeMutablePointer<Point>
    /// The memory the storage takes, in bytes.
    let byteCount: Int

    /// Collects `pattern`'s audio controls as `ParameterTimeline` does.
    init(_ pattern: Pattern) {
        var perControl = Array(repeating: [(start: Double, order: Int, points: [Point])](), count: Self.controls.count)
        var order = 0
        for parameter in pattern.parameters where parameter.time.isFinite && parameter.value.isFinite {
            if let slot = Self.controls.firstIndex(of: parameter.id) {
                perControl[slot].append((parameter.time, order, [Point(time: 0, value: parameter.value)]))
            }
            order += 1
        }
        for curve in pattern.curves where curve.time.isFinite {
            guard let slot = Self.controls.firstIndex(of: curve.id) else { continue }
            let points = curve.controlPoints
                .filter { $0.time.isFinite && $0.value.isFinite }
                .enumerated()
                .sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
                .map { Point(time: $0.element.time, value: $0.element.value) }
            guard !points.isEmpty else { continue }
            perControl[slot].append((curve.time, order, points))
            order += 1
        }
        let sourceCount = perControl.reduce(0) { $0 + $1.count }
        let pointCount = perControl.reduce(0) { $0 + $1.reduce(0) { $0 + $1.points.count } }
        sources = .allocate(capacity: max(1, sourceCount))
        points = .allocate(capacity: max(1, pointCount))
        byteCount = sourceCount * MemoryLayout<Source>.stride + pointCount * MemoryLayout<Point>.stride
        var curves: [_ControlCurve] = []
        var nextSource = 0
        var nextPoint = 0
        for list in perControl {
            let first = nextSource
            for source in list.sorted(by: { ($0.start, $0.order) < ($1.start, $1.order) }) {
                (sources + nextSource).initialize(to: Source(start: source.start, firstPoint: nextPoint,
                                                             pointCount: source.points.count))
                for point in source.points {
                    (points + nextPoint).initialize(to: point)
                    nextPoint += 1
                }
                nextSource += 1
            }
            curves.append(_ControlCurve(sources: UnsafePointer(sources + first), count: nextSource - first,
                                        points: UnsafePointer(points)))
        }
        table = _ControlTable(volume: curves[0], pitch: curves[1], pan: curves[2], brightness: curves[3])
    }

    deinit {
        sources.deallocate()
        points.deallocate()
    }

    /// What ``init(_:)`` would allocate for `pattern`, in bytes, without allocating it.
    static func byteCount(for pattern: Pattern) -> Int {
        var sourceCount = 0
        var pointCount = 0
        for parameter in pattern.parameters
        where parameter.time.isFinite && parameter.value.isFinite && controls.contains(parameter.id) {
            sourceCount += 1
            pointCount += 1
        }
        for curve in pattern.curves where curve.time.isFinite && controls.contains(curve.id) {
            let count = curve.controlPoints.filter { $0.time.isFinite && $0.value.isFinite }.count
            guard count > 0 else { continue }
            sourceCount += 1
            pointCount += count
        }
        return sourceCount * MemoryLayout<Source>.stride + pointCount * MemoryLayout<Point>.stride
    }
}

/// A pattern's four per-sample audio controls, as plain pointers (see ``_ControlCurves``).
struct _ControlTable {
    var volume: _ControlCurve
    var pitch: _ControlCurve
    var pan: _ControlCurve
    var brightness: _ControlCurve

    /// No control at all.
    static var none: _ControlTable { _ControlTable(volume: .none, pitch: .none, pan: .none, brightness: .none) }

    /// Multiplier of audio volume at `time`, 0…1 (as `AudioControls.volumeScale`).
    @inline(__always)
    func volumeScale(at time: Double, _ cursor: inout _ControlCursor) -> Double {
        AudioControls.clamp(volume.value(at: time, &cursor.volume) ?? 1, 0, 1)
    }

    /// Shift of audio pitch at `time`, −1…1.
    @inline(__always)
    func pitchShift(at time: Double, _ cursor: inout _ControlCursor) -> Double {
        AudioControls.clamp(pitch.value(at: time, &cursor.pitch) ?? 0, -1, 1)
    }

    /// Shift of audio pan at `time`, −1…1.
    @inline(__always)
    func panShift(at time: Double, _ cursor: inout _ControlCursor) -> Double {
        AudioControls.clamp(pan.value(at: time, &cursor.pan) ?? 0, -1, 1)
    }

    /// Shift of audio brightness at `time`, −1…1.
    @inline(__always)
    func brightnessShift(at time: Double, _ cursor: inout _ControlCursor) -> Double {
        AudioControls.clamp(brightness.value(at: time, &cursor.brightness) ?? 0, -1, 1)
    }
}

/// One control's sources, sorted as the timeline picks them, and the points they index.
struct _ControlCurve {
    var sources: UnsafePointer<_ControlCurves.Source>?
    var count: Int
    var points: UnsafePointer<_ControlCurves.Point>?

    static var none: _ControlCurve { _ControlCurve(sources: nil, count: 0, points: nil) }

    /// Whether the control has any source.
    var drives: Bool { count > 0 }

    /// The control's raw value at `time`, or `nil` before its first source — `ParameterTimeline`'s
    /// value — for times that never go back from one call to the next with the same cursor.
    @inline(__always)
    func value(at time: Double, _ cursor: inout _CurveCursor) -> Double? {
        guard let sources, let points else { return nil }
        // The winner is the last source started by `time`; later times only extend that prefix.
        while cursor.source + 1 < count, sources[cursor.source + 1].start <= time {
            cursor.source += 1
            cursor.point = 1
        }
        guard cursor.source >= 0 else { return nil }
        let source = sources[cursor.source]
        let offset = time - source.start
        let first = points + source.firstPoint
        if offset <= first[0].time { return first[0].value }
        // The first point at or after the offset; later offsets never need an earlier one.
        while cursor.point < source.pointCount, !(offset <= first[cursor.point].time) { cursor.point += 1 }
        guard cursor.point < source.pointCount else { return first[source.pointCount - 1].value }
        let from = first[cursor.point - 1]
        let to = first[cursor.point]
        let span = to.time - from.time
        guard span > 0 else { return to.value }
        return from.value + (to.value - from.value) * (offset - from.time) / span
    }
}

/// Where one voice is in one control: the source that won last and the point it reached.
struct _CurveCursor {
    var source = -1
    var point = 1
}

/// A voice's cursors in the four controls.
struct _ControlCursor {
    var volume = _CurveCursor()
    var pitch = _CurveCursor()
    var pan = _CurveCursor()
    var brightness = _CurveCursor()
}
