/// Writes a `Pattern` as a `.haptic` clip (data model version 1.0.0): deterministic, pretty-printed.
///
/// A clip holds one signal, so the pattern's haptic events are flattened into it as they are felt
/// (`docs/reference/formats.md`): the amplitude envelope is the summed level of the continuous events (their
/// envelopes and the intensity control applied, saturated at 1), the frequency envelope their
/// intensity-weighted sharpness, and each transient an emphasis on the breakpoint at its time
/// (with its own intensity and sharpness: emphasis is absolute).
/// Straight stretches are one segment; bends (attack, decay, release, curves multiplied together)
/// are followed within 1/1000 of a level; jumps are two breakpoints sharing a time. Times and levels
/// are written with 6 decimals. Audio events and audio parameters have no place in a clip and are
/// left out (`omissions(in:)` lists them).
///
/// `HapticClipDecoder` reads what this writes back into an equivalent pattern; for patterns of
/// flat events (the canonical ones) the events come back as they were.
public struct HapticClipEncoder: Sendable {
    /// Creates an encoder.
    public init() {}

    /// The `.haptic` text of `pattern`, ending with a newline.
    public func encode(_ pattern: Pattern) -> String {
        let (amplitude, frequency) = Self.envelopes(of: pattern)
        var out = "{\n  \"version\": { \"major\": 1, \"minor\": 0, \"patch\": 0 },\n"
        let metadata = Self.metadataFields(pattern.metadata)
        if !metadata.isEmpty {
            out += "  \"metadata\": {\n" + metadata.map { "    " + $0 }.joined(separator: ",\n") + "\n  },\n"
        }
        out += "  \"signals\": {\n    \"continuous\": {\n      \"envelopes\": {\n"
        out += "        \"amplitude\": [\n"
        out += amplitude.map { point in
            var text = "          { \"time\": \(Self.number(point.time)), \"amplitude\": \(Self.number(point.value))"
            if let emphasis = point.emphasis {
                text += ", \"emphasis\": { \"amplitude\": \(Self.number(emphasis.amplitude)), \"frequency\": \(Self.number(emphasis.frequency)) }"
            }
            return text + " }"
        }.joined(separator: ",\n")
        out += "\n        ]"
        if !frequency.isEmpty {
            out += ",\n        \"frequency\": [\n"
            out += frequency.map { point in
                "          { \"time\": \(Self.number(point.time)), \"frequency\": \(Self.number(point.value)) }"
            }.joined(separator: ",\n")
            out += "\n        ]"
        }
        return out + "\n      }\n    }\n  }\n}\n"
    }

    /// What of `pattern` a clip cannot hold, one phrase each (empty when nothing is lost).
    public func omissions(in pattern: Pattern) -> [String] {
        var omissions: [String] = []
        let audio = pattern.events.filter { !$0.kind.isHaptic }.count
        if audio > 0 { omissions.append("\(audio) audio event\(audio == 1 ? "" : "s")") }
        let audioControls = pattern.parameters.filter { $0.id.isAudio }.count + pattern.curves.filter { $0.id.isAudio }.count
        if audioControls > 0 {
            omissions.append("\(audioControls) audio parameter\(audioControls == 1 ? "" : "s") or curve\(audioControls == 1 ? "" : "s")")
        }
        let triggers = pattern.triggerEvents.count
        if triggers > 0 { omissions.append("\(triggers) trigger effect\(triggers == 1 ? "" : "s")") }
        return omissions
    }

    // MARK: Envelopes

    struct Point {
        var time: Double
        var value: Double
        var emphasis: HapticClipDecodingSession.Emphasis?
    }

    /// How far a bend may stray from a straight segment before it gets a breakpoint of its own.
    static let tolerance = 0.001
    /// How many times a segment is halved at most to follow a bend.
    static let maximumRefinement = 10

    static func envelopes(of pattern: Pattern) -> (amplitude: [Point], frequency: [Point]) {
        let felt = FeltLevels(pattern)
        var amplitude: [Point] = []
        var frequency: [Point] = []
        // Times and values on the grid they are written with; a left and a right limit that round
        // a step apart are one breakpoint, not a jump of nothing. Instants closer than a step are
        // written as one: of the breakpoints that then share a time only the first and the last
        // are kept (a reader ignores the ones between).
        func add(_ time: Double, level: Double, sharpness: Double?) {
            let time = quantized(time)
            func append(_ value: Double, to points: inout [Point]) {
                let value = quantized(value)
                if let last = points.last, last.time == time, abs(last.value - value) < 1.5 * resolution { return }
                let count = points.count
                if count >= 2, points[count - 1].time == time, points[count - 2].time == time {
                    points.removeLast()
                    if abs(points[count - 2].value - value) < 1.5 * resolution { return }
                }
                points.append(Point(time: time, value: value))
            }
            append(level, to: &amplitude)
            if let sharpness { append(sharpness, to: &frequency) }
        }
        func refine(
            _ active: [FeltLevels.Layer], from start: (Double, Double, Double?), to end: (Double, Double, Double?), depth: Int
        ) {
            // The middle must round to a written time of its own, strictly between the ends'.
            let middle = (start.0 + end.0) / 2
            guard depth < maximumRefinement, quantized(middle) > quantized(start.0), quantized(middle) < quantized(end.0)
            else { return }
            // Straight enough when the chord is within the tolerance at a quarter, the middle and
            // three quarters of the way (a weighted sharpness can bend away from the middle).
            var bent = false
            for fraction in [0.25, 0.5, 0.75] where !bent {
                let time = start.0 + (end.0 - start.0) * fraction
                let sample = felt.sample(active, at: time, controlTime: time)
                bent = abs(sample.level - (start.1 + (end.1 - start.1) * fraction)) > tolerance
                if let s0 = start.2, let s1 = end.2, let sharpness = sample.sharpness {
                    bent = bent || abs(sharpness - (s0 + (s1 - s0) * fraction)) > tolerance
                }
            }
            guard bent else { return }
            let sample = felt.sample(active, at: middle, controlTime: middle)
            let point = (middle, sample.level, sample.sharpness)
            refine(active, from: start, to: point, depth: depth + 1)
            add(middle, level: sample.level, sharpness: sample.sharpness)
            refine(active, from: point, to: end, depth: depth + 1)
        }
        // The limit of the levels at `time` from one side (`side` −1: the left, +1: the right). The
        // controls are read one and two instants to that side and the line through the two readings
        // is carried back to `time`: a control ramp too steep for the grid (a whole level within a
        // written step) gives its value at `time`, not the one an instant along it, which would
        // move by a written step at every encoding.
        func limit(_ layers: [FeltLevels.Layer], at time: Double, side: Double) -> (level: Double, sharpness: Double?) {
            let near = felt.sample(layers, at: time, controlTime: time + side * FeltLevels.instant)
            let far = felt.sample(layers, at: time, controlTime: time + 2 * side * FeltLevels.instant)
            func carried(_ near: Double, _ far: Double) -> Double { min(1, max(0, 2 * near - far)) }
            var sharpness = near.sharpness
            if let nearSharpness = near.sharpness, let farSharpness = far.sharpness {
                sharpness = carried(nearSharpness, farSharpness)
            }
            return (carried(near.level, far.level), sharpness)
        }
        let times = felt.criticalTimes
        var active: [FeltLevels.Layer] = []
        var next = 0
        for (index, time) in times.enumerated() {
            let before = active
            active.removeAll { $0.end <= time }
            while next < felt.layers.count, felt.layers[next].start <= time {
                if felt.layers[next].end > time { active.append(felt.layers[next]) }
                next += 1
            }
            if index > 0 {
                let left = limit(before, at: time, side: -1)
                add(time, level: left.level, sharpness: left.sharpness)
            }
            // The limit from the right: a curve jumping at `time` (two points sharing it) still
            // holds its earlier value at that very instant.
            let right = limit(active, at: time, side: 1)
            add(time, level: right.level, sharpness: right.sharpness)
            if index + 1 < times.count, !active.isEmpty {
                let end = times[index + 1]
                let left = limit(active, at: end, side: -1)
                refine(active, from: (time, right.level, right.sharpness), to: (end, left.level, left.sharpness), depth: 0)
            }
        }
        // Sound shorter than a written step, all at one written time: a reader plays nothing
        // continuous there, so it is written as the silence it will be.
        if !amplitude.indices.dropLast().contains(where: { amplitude[$0 + 1].time > amplitude[$0].time }) {
            for index in amplitude.indices { amplitude[index].value = 0 }
        }
        attach(felt.transients, to: &amplitude)
        amplitude = trimmedSilence(withoutLeadingJump(straightened(amplitude)))
        if amplitude.isEmpty { amplitude.append(Point(time: 0, value: 0)) }
        var frequencies = withoutLeadingJump(straightened(sounding(frequency, under: amplitude)))
        // The frequency a jump at the very end leads to is never heard either: the sound ends there.
        while frequencies.count >= 2, frequencies[frequencies.count - 1].time == frequencies[frequencies.count - 2].time {
            frequencies.removeLast()
        }
        return (amplitude, frequencies)
    }

    /// `points` without a jump at the very start: the level before it is never heard, and a reader
    /// drops it.
    private static func withoutLeadingJump(_ points: [Point]) -> [Point] {
        var points = points
        while points.count >= 2, points[0].time == points[1].time, points[0].emphasis == nil { points.removeFirst() }
        return points
    }

    /// `points` without the silence a reader cannot tell apart from none: zero breakpoints
    /// between two other zeros, before the zero a sound rises from, and after the zero it falls
    /// to. (A level too small to write is 0 here, and must not leave the clip longer.) Breakpoints
    /// with an emphasis always stay.
    private static func trimmedSilence(_ points: [Point]) -> [Point] {
        guard let first = points.firstIndex(where: { $0.value > 0 }),
              let last = points.lastIndex(where: { $0.value > 0 })
        else { return points.filter { $0.emphasis != nil } }
        // The zero a jump rises from is kept only after an earlier breakpoint (an emphasis), which
        // would otherwise make a ramp of the jump; at the start a reader drops it.
        let jumpAfterEmphasis = points[..<first].contains { $0.emphasis != nil }
        let start = first > 0 && (points[first - 1].time < points[first].time || jumpAfterEmphasis) ? first - 1 : first
        let end = last + 1 < points.count ? last + 1 : last
        return points.indices.compactMap { index in
            let point = points[index]
            if point.emphasis != nil { return point }
            guard index >= start, index <= end else { return nil }
            let inside = index > start && index < end
            if inside, point.value == 0, points[index - 1].value == 0, points[index + 1].value == 0 { return nil }
            return point
        }
    }

    /// The frequency breakpoints within the stretches that sound in `amplitude` (segments with a
    /// duration and a level above 0 at one end): a reader holds the frequency across silence, so
    /// what lies there is noise to it.
    private static func sounding(_ frequency: [Point], under amplitude: [Point]) -> [Point] {
        var stretches: [ClosedRange<Double>] = []
        for index in amplitude.indices.dropLast() {
            let from = amplitude[index]
            let to = amplitude[index + 1]
            guard to.time > from.time, from.value > 0 || to.value > 0 else { continue }
            if let last = stretches.last, last.upperBound == from.time {
                stretches[stretches.count - 1] = last.lowerBound...to.time
            } else {
                stretches.append(from.time...to.time)
            }
        }
        let kept = frequency.filter { point in stretches.contains { $0.contains(point.time) } }
        // Of a jump where a stretch begins or ends, the side in the silence is never heard.
        return kept.indices.compactMap { index in
            let point = kept[index]
            if index + 1 < kept.count, kept[index + 1].time == point.time,
               stretches.contains(where: { $0.lowerBound == point.time }) { return nil }
            if index > 0, kept[index - 1].time == point.time,
               stretches.contains(where: { $0.upperBound == point.time }) { return nil }
            return point
        }
    }

    /// Puts each transient on the last breakpoint at its time (there is one: transient times are
    /// critical times); transients at one time add up, saturating at 1, their frequencies weighted.
    private static func attach(_ transients: [FeltLevels.Transient], to amplitude: inout [Point]) {
        var lastIndex: [Double: Int] = [:]
        for (index, point) in amplitude.enumerated() { lastIndex[point.time] = index }
        var sums: [Double: (level: Double, weighted: Double, plain: Double, count: Double)] = [:]
        for transient in transients {
            // On the grid of written times, as the breakpoints are.
            let time = quantized(transient.time)
            var sum = sums[time] ?? (0, 0, 0, 0)
            sum.level += transient.intensity
            sum.weighted += transient.intensity * transient.sharpness
            sum.plain += transient.sharpness
            sum.count += 1
            sums[time] = sum
        }
        for (time, sum) in sums {
            let frequency = sum.level > 0 ? sum.weighted / sum.level : sum.plain / sum.count
            let emphasis = HapticClipDecodingSession.Emphasis(amplitude: min(1, sum.level), frequency: frequency)
            if let index = lastIndex[time] {
                amplitude[index].emphasis = emphasis
            } else {
                // A transient after the last continuous event: a silent breakpoint carries it.
                amplitude.append(Point(time: time, value: 0, emphasis: emphasis))
            }
        }
        amplitude = amplitude.enumerated()
            .sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
            .map(\.element)
    }

    /// `points` without the breakpoints that lie on the straight line between their neighbours
    /// (within the rounding of written values: one and a half steps of the grid).
    private static func straightened(_ points: [Point]) -> [Point] {
        guard points.count > 2 else { return points }
        var kept: [Point] = [points[0]]
        for index in 1..<(points.count - 1) {
            let previous = kept[kept.count - 1]
            let point = points[index]
            let following = points[index + 1]
            let span = following.time - previous.time
            let onLine = point.emphasis == nil && previous.time < point.time && point.time < following.time
                && abs(previous.value + (following.value - previous.value) * (point.time - previous.time) / span - point.value)
                    < 1.5 * resolution
            if !onLine { kept.append(point) }
        }
        kept.append(points[points.count - 1])
        return kept
    }

    // MARK: Text

    /// Metadata as clip fields: every `tags` entry in one array, other keys once (the last value).
    private static func metadataFields(_ metadata: [MetadataEntry]) -> [String] {
        var order: [String] = []
        var values: [String: [String]] = [:]
        for entry in metadata {
            if values[entry.key] == nil { order.append(entry.key) }
            values[entry.key, default: []].append(entry.value)
        }
        return order.map { key in
            let list = values[key] ?? []
            if key == "tags" {
                return "\"tags\": [" + list.map(JSONString.quoted).joined(separator: ", ") + "]"
            }
            return JSONString.quoted(key) + ": " + JSONString.quoted(list.last ?? "")
        }
    }

    /// The finest step of a written time or level (6 decimals).
    static let resolution = 1e-6

    private static func quantized(_ value: Double) -> Double {
        (value / resolution).rounded() * resolution
    }

    /// A time or level as written; not finite → `0`, which JSON cannot hold otherwise.
    private static func number(_ value: Double) -> String {
        value.isFinite ? NumberText.decimal(value, digits: 6) : "0"
    }
}

extension DynamicParameterID {
    /// Whether the parameter controls audio events (a `.haptic` clip has none).
    var isAudio: Bool {
        switch self {
        case .audioVolumeControl, .audioPanControl, .audioPitchControl, .audioBrightnessControl,
            .audioAttackTimeControl, .audioDecayTimeControl, .audioReleaseTimeControl:
            return true
        default:
            return false
        }
    }
}
