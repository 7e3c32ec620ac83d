/// Writes a `Pattern` as AHAP text: deterministic, pretty-printed, keys in a fixed order.
///
/// The same pattern always gives the same bytes, so canonical files can be checked for drift and
/// `decode(encode(p)) == p` for every decoded pattern. Layout: two-space indentation; an event
/// parameter, a `Parameter` and a control point each on one line; absent optional values omitted.
public struct AHAPEncoder: Sendable {
    /// Creates an encoder.
    public init() {}

    /// The AHAP text of `pattern`, ending with a newline.
    ///
    /// Order: `Version`, `Metadata` (if any, in its own order), then `Pattern` with all events,
    /// then all parameters, then all curves, each in the pattern's order, then the trigger
    /// extension `DualSenseTriggers` (if any).
    public func encode(_ pattern: Pattern) -> String {
        var out = "{\n"
        out += "  \"Version\": \(pattern.version.jsonText),\n"
        if !pattern.metadata.isEmpty {
            out += "  \"Metadata\": {\n"
            out += pattern.metadata.map { entry in
                "    \(JSONString.quoted(entry.key)): \(JSONString.quoted(entry.value))"
            }.joined(separator: ",\n")
            out += "\n  },\n"
        }
        var entries: [String] = []
        for event in pattern.events { entries.append(encode(event)) }
        for parameter in pattern.parameters { entries.append(encode(parameter)) }
        for curve in pattern.curves { entries.append(encode(curve)) }
        let close = pattern.triggerEvents.isEmpty ? "\n" : ",\n"
        if entries.isEmpty {
            out += "  \"Pattern\": []" + close
        } else {
            out += "  \"Pattern\": [\n"
            out += entries.joined(separator: ",\n")
            out += "\n  ]" + close
        }
        if !pattern.triggerEvents.isEmpty {
            out += "  \"DualSenseTriggers\": [\n"
            out += pattern.triggerEvents.map { event in
                var fields = ["\"Time\": \(event.time.jsonText)"]
                if let left = event.left { fields.append("\"Left\": \(JSONString.quoted(left.description))") }
                if let right = event.right { fields.append("\"Right\": \(JSONString.quoted(right.description))") }
                return "    { " + fields.joined(separator: ", ") + " }"
            }.joined(separator: ",\n")
            out += "\n  ]\n"
        }
        return out + "}\n"
    }

    private func encode(_ event: PatternEvent) -> String {
        var fields = [
            "\"Time\": \(event.time.jsonText)",
            "\"EventType\": \(JSONString.quoted(event.kind.rawValue))",
        ]
        if let duration = event.duration { fields.append("\"EventDuration\": \(duration.jsonText)") }
        if let path = event.waveformPath { fields.append("\"EventWaveformPath\": \(JSONString.quoted(path))") }
        if let flag = event.waveformUseVolumeEnvelope { fields.append("\"EventWaveformUseVolumeEnvelope\": \(flag)") }
        if let flag = event.waveformLoopEnabled { fields.append("\"EventWaveformLoopEnabled\": \(flag)") }
        let parameters = EventParameterID.allCases.compactMap { id in
            id.value(in: event.parameters).map { value in
                "          { \"ParameterID\": \(JSONString.quoted(id.rawValue)), \"ParameterValue\": \(value.jsonText) }"
            }
        }
        if !parameters.isEmpty {
            fields.append("\"EventParameters\": [\n" + parameters.joined(separator: ",\n") + "\n        ]")
        }
        return "    {\n      \"Event\": {\n"
            + fields.map { "        " + $0 }.joined(separator: ",\n")
            + "\n      }\n    }"
    }

    private func encode(_ parameter: DynamicParameter) -> String {
        "    {\n      \"Parameter\": { \"ParameterID\": \(JSONString.quoted(parameter.id.rawValue)), "
            + "\"Time\": \(parameter.time.jsonText), \"ParameterValue\": \(parameter.value.jsonText) }\n    }"
    }

    private func encode(_ curve: ParameterCurve) -> String {
        let points = curve.controlPoints.map { point in
            "          { \"Time\": \(point.time.jsonText), \"ParameterValue\": \(point.value.jsonText) }"
        }
        let list = points.isEmpty ? "[]" : "[\n" + points.joined(separator: ",\n") + "\n        ]"
        return "    {\n      \"ParameterCurve\": {\n"
            + "        \"ParameterID\": \(JSONString.quoted(curve.id.rawValue)),\n"
            + "        \"Time\": \(curve.time.jsonText),\n"
            + "        \"ParameterCurveControlPoints\": \(list)\n"
            + "      }\n    }"
    }
}
