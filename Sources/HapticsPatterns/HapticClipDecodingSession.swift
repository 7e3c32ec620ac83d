/// The state of one `.haptic` decode: where diagnostics point and the warnings gathered so far.
struct HapticClipDecodingSession: JSONDecodingSession {
    let fileName: String
    let limits: PatternLimits
    var warnings: [PatternDiagnostic]

    /// The only major version of the data model this reader knows.
    static let supportedMajorVersion = 1

    /// One breakpoint of an envelope, with where it was written.
    struct Breakpoint {
        var time: Double
        var value: Double
        var emphasis: Emphasis?
        var source: JSONValue
    }

    /// A breakpoint's emphasis: a transient on top of the envelope.
    struct Emphasis {
        var amplitude: Double
        var frequency: Double
    }

    // MARK: Top level

    mutating func decodePattern(_ root: JSONValue) throws(PatternError) -> Pattern {
        guard case .object = root.content else {
            throw error(at: root, path: "", "expected an object at the top level, found \(root.foundDescription)")
        }
        let members = try self.members(of: root, path: "", known: ["version", "metadata", "signals"])
        try checkVersion(try required("version", in: members, of: root, path: ""))
        var pattern = Pattern()
        if let metadata = members["metadata"] {
            pattern.metadata = try decodeMetadata(metadata, path: "metadata", listKeys: ["tags"])
        }
        let signalsValue = try required("signals", in: members, of: root, path: "")
        let signals = try self.members(of: signalsValue, path: "signals", known: ["continuous"])
        let continuousValue = try required("continuous", in: signals, of: signalsValue, path: "signals")
        let continuous = try self.members(of: continuousValue, path: "signals.continuous", known: ["envelopes"])
        let envelopesPath = "signals.continuous.envelopes"
        let envelopesValue = try required("envelopes", in: continuous, of: continuousValue, path: "signals.continuous")
        let envelopes = try self.members(of: envelopesValue, path: envelopesPath, known: ["amplitude", "frequency"])
        let amplitudeValue = try required("amplitude", in: envelopes, of: envelopesValue, path: envelopesPath)
        let amplitude = try decodeEnvelope(amplitudeValue, path: envelopesPath + ".amplitude", valueKey: "amplitude")
        guard !amplitude.isEmpty else {
            throw error(
                at: amplitudeValue, path: envelopesPath + ".amplitude",
                "expected at least one amplitude breakpoint, found an empty array")
        }
        var frequency: [Breakpoint] = []
        if let frequencyValue = envelopes["frequency"] {
            frequency = try decodeEnvelope(frequencyValue, path: envelopesPath + ".frequency", valueKey: "frequency")
        }
        build(amplitude: amplitude, of: amplitudeValue, frequency: frequency, into: &pattern)
        return pattern
    }

    /// `version` must be `{"major": 1, …}`; minor and patch versions are compatible by the data
    /// model's own rule, so any is accepted.
    private mutating func checkVersion(_ value: JSONValue) throws(PatternError) {
        let members = try self.members(of: value, path: "version", known: ["major", "minor", "patch"])
        let major = try wholeNumber(try required("major", in: members, of: value, path: "version"), path: "version.major")
        for key in ["minor", "patch"] {
            if let part = members[key] { _ = try wholeNumber(part, path: "version." + key) }
        }
        guard major == Double(Self.supportedMajorVersion) else {
            throw error(
                at: members["major"] ?? value, path: "version.major",
                "unsupported major version \(NumberText.shortest(major)); this reader supports version \(Self.supportedMajorVersion) clips")
        }
    }

    private func wholeNumber(_ value: JSONValue, path: String) throws(PatternError) -> Double {
        guard case .number(let number, _) = value.content, number >= 0, number == number.rounded() else {
            throw error(at: value, path: path, "expected a whole number ≥ 0, found \(value.foundDescription)")
        }
        return number
    }

    // MARK: Envelopes

    /// The breakpoints of one envelope in time order. Breakpoints sharing a time are a step; of
    /// three or more at one time only the first and the last shape the envelope (the others have
    /// no duration, a warning says so), though every emphasis still counts.
    private mutating func decodeEnvelope(
        _ value: JSONValue, path: String, valueKey: String
    ) throws(PatternError) -> [Breakpoint] {
        var points: [Breakpoint] = []
        let known: Set<String> = valueKey == "amplitude" ? ["time", "amplitude", "emphasis"] : ["time", "frequency"]
        for (index, element) in try array(value, path: path).enumerated() {
            let pointPath = "\(path)[\(index)]"
            if index == limits.maximumEventCount {
                throw error(at: element, path: pointPath, "more breakpoints than the limit of \(limits.maximumEventCount)")
            }
            let members = try self.members(of: element, path: pointPath, known: known)
            let timeValue = try required("time", in: members, of: element, path: pointPath)
            let time = try self.time(timeValue, path: pointPath + ".time")
            if let previous = points.last, time < previous.time {
                throw error(
                    at: timeValue, path: pointPath + ".time",
                    "expected a time ≥ \(NumberText.shortest(previous.time)) (breakpoints in time order), found \(timeValue.foundDescription)"
                )
            }
            try checkEnd(time, at: timeValue, path: pointPath)
            let levelValue = try required(valueKey, in: members, of: element, path: pointPath)
            let level = clamp(
                try number(levelValue, path: "\(pointPath).\(valueKey)"), to: 0...1, name: valueKey,
                at: levelValue, path: "\(pointPath).\(valueKey)")
            var point = Breakpoint(time: time, value: level, emphasis: nil, source: element)
            if let emphasis = members["emphasis"] {
                point.emphasis = try decodeEmphasis(emphasis, path: pointPath + ".emphasis")
            }
            if points.count >= 2, points[points.count - 1].time == time, points[points.count - 2].time == time {
                warn(
                    at: points[points.count - 1].source, path: "\(path)[\(index - 1)]",
                    "a third breakpoint at \(NumberText.shortest(time)) s; this one has no duration and only its emphasis counts")
            }
            points.append(point)
        }
        return points
    }

    private mutating func decodeEmphasis(_ value: JSONValue, path: String) throws(PatternError) -> Emphasis {
        let members = try self.members(of: value, path: path, known: ["amplitude", "frequency"])
        var levels: [Double] = []
        for key in ["amplitude", "frequency"] {
            let part = try required(key, in: members, of: value, path: path)
            levels.append(clamp(
                try number(part, path: "\(path).\(key)"), to: 0...1, name: "emphasis " + key, at: part, path: "\(path).\(key)"))
        }
        return Emphasis(amplitude: levels[0], frequency: levels[1])
    }

    // MARK: Building the pattern

    private mutating func build(
        amplitude: [Breakpoint], of envelope: JSONValue, frequency: [Breakpoint], into pattern: inout Pattern
    ) {
        let levels = Self.shape(amplitude)
        var frequencies = Self.shape(frequency)
        // A frequency envelope that starts after the amplitude one holds its first value from the
        // clip's start, as it holds its last after its end.
        if let first = frequencies.first, first.time > levels[0].time {
            frequencies.insert(ParameterCurve.ControlPoint(time: levels[0].time, value: first.value), at: 0)
        }
        let runs = Self.soundingRuns(levels)
        if runs.isEmpty, levels.contains(where: { $0.value > 0 }) {
            warn(
                at: envelope, path: "signals.continuous.envelopes.amplitude",
                "the amplitude envelope has no duration: nothing continuous to play")
        }
        // Flat when every stretch between jumps holds one level and one frequency: then each such
        // stretch is an event of its own (back-to-back AHAP events come back as they were).
        let pieces = runs.flatMap { Self.pieces(of: $0, in: levels) }
        let flat = pieces.allSatisfy { piece in
            levels[piece].allSatisfy { $0.value == levels[piece.lowerBound].value }
                && Self.isFlat(frequencies, from: levels[piece.lowerBound].time, to: levels[piece.upperBound].time)
        }
        var events: [PatternEvent] = []
        for run in flat ? pieces : runs {
            let start = levels[run.lowerBound].time
            var parameters = EventParameters(hapticIntensity: 1, hapticSharpness: frequencies.isEmpty ? nil : 0)
            if flat {
                parameters.hapticIntensity = levels[run.lowerBound].value
                parameters.hapticSharpness = frequencies.isEmpty ? nil : ParameterCurve.interpolate(frequencies, at: start)
            }
            events.append(PatternEvent(
                kind: .hapticContinuous, time: start, duration: levels[run.upperBound].time - start,
                parameters: parameters))
        }
        if !flat {
            pattern.curves += Self.curves(.hapticIntensityControl, levels, pointsPerCurve: limits.recommendedControlPointsPerCurve)
            pattern.curves += Self.curves(.hapticSharpnessControl, frequencies, pointsPerCurve: limits.recommendedControlPointsPerCurve)
        }
        for point in amplitude {
            guard let emphasis = point.emphasis else { continue }
            events.append(PatternEvent(
                kind: .hapticTransient, time: point.time,
                parameters: EventParameters(hapticIntensity: emphasis.amplitude, hapticSharpness: emphasis.frequency)))
        }
        // Time order, a continuous event before a transient at the same time (a stable sort).
        pattern.events = events.enumerated()
            .sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
            .map(\.element)
    }

    /// The points that shape an envelope: of three or more at one time, the first and the last.
    static func shape(_ points: [Breakpoint]) -> [ParameterCurve.ControlPoint] {
        var shape: [ParameterCurve.ControlPoint] = []
        for point in points {
            let next = ParameterCurve.ControlPoint(time: point.time, value: point.value)
            if shape.count >= 2, shape[shape.count - 1].time == next.time, shape[shape.count - 2].time == next.time {
                shape[shape.count - 1] = next
            } else {
                shape.append(next)
            }
        }
        return shape
    }

    /// The index ranges of the amplitude breakpoints that enclose sound: maximal chains of
    /// segments with a duration and a level above zero at one end, joined across steps.
    static func soundingRuns(_ points: [ParameterCurve.ControlPoint]) -> [ClosedRange<Int>] {
        var runs: [ClosedRange<Int>] = []
        var current: ClosedRange<Int>?
        for index in points.indices.dropLast() {
            let from = points[index]
            let to = points[index + 1]
            guard to.time > from.time, from.value > 0 || to.value > 0 else { continue }
            if let run = current, points[run.upperBound].time == from.time {
                current = run.lowerBound...(index + 1)
            } else {
                if let run = current { runs.append(run) }
                current = index...(index + 1)
            }
        }
        if let run = current { runs.append(run) }
        return runs
    }

    /// A run split at its jumps (two breakpoints sharing a time) into stretches with a duration.
    static func pieces(of run: ClosedRange<Int>, in points: [ParameterCurve.ControlPoint]) -> [ClosedRange<Int>] {
        var pieces: [ClosedRange<Int>] = []
        var start = run.lowerBound
        for index in run.dropLast() where points[index + 1].time == points[index].time {
            if points[index].time > points[start].time { pieces.append(start...index) }
            start = index + 1
        }
        if points[run.upperBound].time > points[start].time { pieces.append(start...run.upperBound) }
        return pieces
    }

    /// Whether the frequency envelope holds one value from `start` to `end` (an empty one does).
    static func isFlat(_ points: [ParameterCurve.ControlPoint], from start: Double, to end: Double) -> Bool {
        guard !points.isEmpty else { return true }
        let level = ParameterCurve.interpolate(points, at: start)
        return ParameterCurve.interpolate(points, at: end) == level
            && points.allSatisfy { $0.time < start || $0.time > end || $0.value == level }
    }

    /// `points` (absolute times) as curves of at most `pointsPerCurve` points, each starting at its
    /// first point and sharing its first point with the previous curve's last, so the chain reads
    /// as the one envelope.
    static func curves(
        _ id: DynamicParameterID, _ points: [ParameterCurve.ControlPoint], pointsPerCurve: Int
    ) -> [ParameterCurve] {
        guard !points.isEmpty else { return [] }
        let size = max(2, pointsPerCurve)
        var curves: [ParameterCurve] = []
        var start = 0
        repeat {
            let end = min(points.count, start + size)
            let origin = points[start].time
            curves.append(ParameterCurve(
                id: id, time: origin,
                controlPoints: points[start..<end].map { .init(time: $0.time - origin, value: $0.value) }))
            start = end - 1
        } while start < points.count - 1
        return curves
    }
}
