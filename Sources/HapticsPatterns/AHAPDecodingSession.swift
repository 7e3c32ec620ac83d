import HapticsTriggers

/// The state of one decode: where diagnostics point and the warnings gathered so far.
struct AHAPDecodingSession: JSONDecodingSession {
    let fileName: String
    let limits: PatternLimits
    var warnings: [PatternDiagnostic]
    /// The summed durations of the haptic continuous events decoded so far (`maximumHapticTime`).
    var hapticTime: Double = 0
    /// Where each event's `EventWaveformPath` value is, by the event's index.
    var waveformPathLocations: [Int: SourceLocation] = [:]
    /// The location of the `EventWaveformPath` of the event being decoded.
    var waveformPathLocation: SourceLocation? = nil

    // MARK: Top level

    mutating func decodePattern(_ root: JSONValue) throws(PatternError) -> Pattern {
        guard case .object = root.content else {
            throw error(at: root, path: "", "expected an object at the top level, found \(root.foundDescription)")
        }
        let members = try self.members(of: root, path: "", known: ["Version", "Metadata", "Pattern", "DualSenseTriggers"])
        var pattern = Pattern()
        if let version = members["Version"] {
            // Integer versions (`"Version": 1`) are common in the wild and mean the same thing.
            pattern.version = try number(version, path: "Version")
        }
        if let metadata = members["Metadata"] {
            pattern.metadata = try decodeMetadata(metadata, path: "Metadata", listKeys: [])
        }
        let entries = try array(try required("Pattern", in: members, of: root, path: ""), path: "Pattern")
        for (index, entry) in entries.enumerated() {
            let path = "Pattern[\(index)]"
            if index == limits.maximumEventCount {
                throw error(at: entry, path: path, "more entries than the limit of \(limits.maximumEventCount)")
            }
            try decodeEntry(entry, path: path, into: &pattern)
        }
        if let triggers = members["DualSenseTriggers"] {
            for (index, entry) in try array(triggers, path: "DualSenseTriggers").enumerated() {
                let path = "DualSenseTriggers[\(index)]"
                if index == limits.maximumEventCount {
                    throw error(at: entry, path: path, "more entries than the limit of \(limits.maximumEventCount)")
                }
                pattern.triggerEvents.append(try decodeTriggerEvent(entry, path: path))
            }
        }
        return pattern
    }

    /// One entry of the extension `DualSenseTriggers`: `{"Time": 0.5, "Left": "off", "Right":
    /// "weapon:2,6,8"}`, at least one of `Left` and `Right`, each effect in the text form
    /// `haptics triggers` takes.
    private mutating func decodeTriggerEvent(_ value: JSONValue, path: String) throws(PatternError) -> TriggerPatternEvent {
        let members = try self.members(of: value, path: path, known: ["Time", "Left", "Right"])
        let timeValue = try required("Time", in: members, of: value, path: path)
        let time = try time(timeValue, path: path + ".Time")
        try checkEnd(time, at: timeValue, path: path + ".Time")
        var event = TriggerPatternEvent(time: time)
        for side in ["Left", "Right"] {
            guard let text = members[side] else { continue }
            let written = try string(text, path: path + "." + side)
            let effect: TriggerEffect
            do throws(TriggerEffectParseError) {
                effect = try TriggerEffect(parsing: written)
            } catch {
                throw self.error(at: text, path: path + "." + side, error.description)
            }
            if side == "Left" { event.left = effect } else { event.right = effect }
        }
        if event.left == nil && event.right == nil {
            throw error(at: value, path: path, "expected \"Left\", \"Right\" or both")
        }
        return event
    }

    private mutating func decodeEntry(_ entry: JSONValue, path: String, into pattern: inout Pattern) throws(PatternError) {
        let kinds = ["Event", "Parameter", "ParameterCurve"]
        let members = try self.members(of: entry, path: path, known: Set(kinds))
        let present = kinds.filter { members[$0] != nil }
        guard present.count == 1, let kind = present.first, let body = members[kind] else {
            var found = present.isEmpty ? "none" : present.map { JSONString.quoted($0) }.joined(separator: " and ")
            if present.isEmpty, case .object(let all) = entry.content, let other = all.first {
                // Usually a misspelt kind such as "ParameterCurves": name it next to the error.
                found += " (the entry has \(JSONString.quoted(other.key)))"
            }
            throw error(
                at: entry, path: path,
                "expected exactly one of \"Event\", \"Parameter\" or \"ParameterCurve\", found \(found)")
        }
        switch kind {
        case "Event":
            pattern.events.append(try decodeEvent(body, path: path + ".Event"))
            if let location = waveformPathLocation { waveformPathLocations[pattern.events.count - 1] = location }
            waveformPathLocation = nil
        case "Parameter":
            if let parameter = try decodeParameter(body, path: path + ".Parameter") {
                pattern.parameters.append(parameter)
            }
        default:
            if let curve = try decodeCurve(body, path: path + ".ParameterCurve") {
                pattern.curves.append(curve)
            }
        }
    }

    // MARK: Events

    private mutating func decodeEvent(_ value: JSONValue, path: String) throws(PatternError) -> PatternEvent {
        let members = try self.members(
            of: value, path: path,
            known: [
                "Time", "EventType", "EventDuration", "EventWaveformPath", "EventWaveformUseVolumeEnvelope",
                "EventWaveformLoopEnabled", "EventParameters",
            ])
        let typeValue = try required("EventType", in: members, of: value, path: path)
        let typeName = try string(typeValue, path: path + ".EventType")
        guard let kind = PatternEvent.Kind(rawValue: typeName) else {
            throw error(
                at: typeValue, path: path + ".EventType",
                "expected \"HapticTransient\", \"HapticContinuous\", \"AudioCustom\" or \"AudioContinuous\", found \(typeValue.foundDescription)"
            )
        }
        let timeValue = try required("Time", in: members, of: value, path: path)
        var event = PatternEvent(kind: kind, time: try time(timeValue, path: path + ".Time"))
        if let duration = members["EventDuration"] {
            event.duration = try time(duration, path: path + ".EventDuration")
        } else if kind == .hapticContinuous {
            throw error(at: value, path: path, "missing required key \"EventDuration\" for a HapticContinuous event")
        }
        if let waveform = members["EventWaveformPath"] {
            event.waveformPath = try string(waveform, path: path + ".EventWaveformPath")
            waveformPathLocation = waveform.location
        } else if kind == .audioCustom {
            throw error(at: value, path: path, "missing required key \"EventWaveformPath\" for an AudioCustom event")
        }
        if let flag = members["EventWaveformUseVolumeEnvelope"] {
            event.waveformUseVolumeEnvelope = try bool(flag, path: path + ".EventWaveformUseVolumeEnvelope")
        }
        if let flag = members["EventWaveformLoopEnabled"] {
            event.waveformLoopEnabled = try bool(flag, path: path + ".EventWaveformLoopEnabled")
        }
        if let parameters = members["EventParameters"] {
            event.parameters = try decodeEventParameters(parameters, path: path + ".EventParameters")
        }
        try checkEnd(event.time + event.resolvedDuration, at: timeValue, path: path)
        if kind == .hapticContinuous {
            hapticTime += event.resolvedDuration
            if hapticTime > limits.maximumHapticTime {
                throw error(
                    at: members["EventDuration"] ?? value, path: path + ".EventDuration",
                    "the haptic continuous events add up to \(NumberText.shortest(hapticTime)) s so far, more than the limit of \(NumberText.shortest(limits.maximumHapticTime)) s of haptic time"
                )
            }
        }
        return event
    }

    private mutating func decodeEventParameters(_ value: JSONValue, path: String) throws(PatternError) -> EventParameters {
        var parameters = EventParameters()
        var seen: Set<EventParameterID> = []
        for (index, element) in try array(value, path: path).enumerated() {
            let elementPath = "\(path)[\(index)]"
            let members = try self.members(of: element, path: elementPath, known: ["ParameterID", "ParameterValue"])
            let idValue = try required("ParameterID", in: members, of: element, path: elementPath)
            let name = try string(idValue, path: elementPath + ".ParameterID")
            let valueValue = try required("ParameterValue", in: members, of: element, path: elementPath)
            guard let id = EventParameterID(rawValue: name) else {
                warn(at: idValue, path: elementPath + ".ParameterID", "unknown parameter \(idValue.foundDescription) ignored")
                continue
            }
            let valuePath = elementPath + ".ParameterValue"
            let number: Double
            if id == .sustained, case .bool(let flag) = valueValue.content {
                // `Sustained` is documented as 1.0 or 0.0; a JSON boolean says the same thing.
                number = flag ? 1 : 0
            } else {
                number = try self.number(valueValue, path: valuePath)
            }
            if !seen.insert(id).inserted {
                warn(at: idValue, path: elementPath + ".ParameterID", "\(name) given again; the last value is used")
            }
            id.set(clamp(number, to: id.range, name: name, at: valueValue, path: valuePath), in: &parameters)
        }
        return parameters
    }

    // MARK: Dynamic parameters

    private mutating func decodeParameter(_ value: JSONValue, path: String) throws(PatternError) -> DynamicParameter? {
        let members = try self.members(of: value, path: path, known: ["ParameterID", "Time", "ParameterValue"])
        let timeValue = try required("Time", in: members, of: value, path: path)
        let time = try self.time(timeValue, path: path + ".Time")
        let valueValue = try required("ParameterValue", in: members, of: value, path: path)
        let number = try self.number(valueValue, path: path + ".ParameterValue")
        guard let id = try dynamicParameterID(in: members, of: value, path: path) else { return nil }
        try checkEnd(time, at: timeValue, path: path)
        let clamped = clamp(number, to: id.range, name: id.rawValue, at: valueValue, path: path + ".ParameterValue")
        return DynamicParameter(id: id, time: time, value: clamped)
    }

    private mutating func decodeCurve(_ value: JSONValue, path: String) throws(PatternError) -> ParameterCurve? {
        let members = try self.members(
            of: value, path: path, known: ["ParameterID", "Time", "ParameterCurveControlPoints"])
        let timeValue = try required("Time", in: members, of: value, path: path)
        let start = try time(timeValue, path: path + ".Time")
        let pointsPath = path + ".ParameterCurveControlPoints"
        let pointsValue = try required("ParameterCurveControlPoints", in: members, of: value, path: path)
        let elements = try array(pointsValue, path: pointsPath)
        guard !elements.isEmpty else {
            throw error(at: pointsValue, path: pointsPath, "expected at least one control point, found an empty array")
        }
        let id = try dynamicParameterID(in: members, of: value, path: path)
        if elements.count > limits.recommendedControlPointsPerCurve, elements.count <= limits.maximumControlPointsPerCurve {
            warn(
                at: pointsValue, path: pointsPath,
                "\(elements.count) control points; Core Haptics documents at most \(limits.recommendedControlPointsPerCurve) per curve"
            )
        }
        var points: [ParameterCurve.ControlPoint] = []
        for (index, element) in elements.enumerated() {
            let pointPath = "\(pointsPath)[\(index)]"
            if index == limits.maximumControlPointsPerCurve {
                throw error(
                    at: element, path: pointPath,
                    "more control points than the limit of \(limits.maximumControlPointsPerCurve)")
            }
            let pointMembers = try self.members(of: element, path: pointPath, known: ["Time", "ParameterValue"])
            let pointTimeValue = try required("Time", in: pointMembers, of: element, path: pointPath)
            let pointTime = try time(pointTimeValue, path: pointPath + ".Time")
            if let previous = points.last, pointTime < previous.time {
                throw error(
                    at: pointTimeValue, path: pointPath + ".Time",
                    "expected a time ≥ \(NumberText.shortest(previous.time)) (control points in time order), found \(pointTimeValue.foundDescription)"
                )
            }
            let pointValue = try required("ParameterValue", in: pointMembers, of: element, path: pointPath)
            var number = try self.number(pointValue, path: pointPath + ".ParameterValue")
            if let id {
                number = clamp(number, to: id.range, name: id.rawValue, at: pointValue, path: pointPath + ".ParameterValue")
            }
            try checkEnd(start + pointTime, at: pointTimeValue, path: pointPath)
            points.append(ParameterCurve.ControlPoint(time: pointTime, value: number))
        }
        guard let id else { return nil }
        return ParameterCurve(id: id, time: start, controlPoints: points)
    }

    /// The `ParameterID` of a `Parameter` or `ParameterCurve`; `nil` (with a warning) when unknown,
    /// so the entry is skipped as Core Haptics skips what it does not support.
    private mutating func dynamicParameterID(
        in members: [String: JSONValue], of object: JSONValue, path: String
    ) throws(PatternError) -> DynamicParameterID? {
        let idValue = try required("ParameterID", in: members, of: object, path: path)
        let name = try string(idValue, path: path + ".ParameterID")
        guard let id = DynamicParameterID(rawValue: name) else {
            warn(at: idValue, path: path + ".ParameterID", "unknown parameter \(idValue.foundDescription); entry ignored")
            return nil
        }
        return id
    }
}
