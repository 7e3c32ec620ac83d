/// Reads one feedbackd theme file (without its parents) into a `FeedbackdTheme.File`.
struct FeedbackdThemeDecoding {
    /// A decoded file, its warnings and where its `parent-name` is (for errors about the parent).
    struct Decoded {
        var file: FeedbackdTheme.File
        var warnings: [PatternDiagnostic]
        var parentNameLocation: SourceLocation
    }

    /// What json-glib reads beyond strict JSON, and so what themes in the wild hold.
    static let leniencies: JSONLeniency = [.hexadecimalIntegers, .comments]

    /// feedbackd's magnitudes were integers of 0…65535 before they became fractions of 0…1.
    static let integerMagnitudeScale = 65_535.0

    let fileName: String
    let limits: PatternLimits
    var warnings: [PatternDiagnostic]
    private var themeName = ""

    static func decode(_ bytes: [UInt8], fileName: String, limits: PatternLimits) throws(PatternError) -> Decoded {
        if bytes.count > limits.maximumFileSize {
            throw PatternError(
                file: fileName, line: 0, column: 0, path: "",
                message: "the file is \(bytes.count) bytes, more than the limit of \(limits.maximumFileSize) bytes")
        }
        var parser = JSONParser(bytes: bytes, fileName: fileName, maximumDepth: limits.maximumNestingDepth,
                                leniencies: leniencies)
        let root = try parser.parseDocument()
        var session = FeedbackdThemeDecoding(fileName: fileName, limits: limits, warnings: parser.warnings)
        return try session.decodeTheme(root)
    }

    private init(fileName: String, limits: PatternLimits, warnings: [PatternDiagnostic]) {
        self.fileName = fileName
        self.limits = limits
        self.warnings = warnings
    }

    // MARK: Theme and profiles

    private mutating func decodeTheme(_ root: JSONValue) throws(PatternError) -> Decoded {
        guard case .object = root.content else {
            throw error(at: root, path: "", "expected an object at the top level, found \(root.foundDescription)")
        }
        let members = try self.members(of: root, path: "", known: ["name", "parent-name", "profiles"])
        themeName = try string(try required("name", in: members, of: root, path: ""), path: "name")
        var parentName: String?
        var parentLocation = root.location
        if let parent = members["parent-name"] {
            parentName = try string(parent, path: "parent-name")
            parentLocation = parent.location
        }
        var feedbacks: [FeedbackdFeedback] = []
        var count = 0
        // A theme with a parent may hold nothing else: it is its parent under another name.
        let profiles = parentName != nil && members["profiles"] == nil ? []
            : try array(try required("profiles", in: members, of: root, path: ""), path: "profiles")
        var seenSections: Set<FeedbackdLevel> = []
        for (index, profile) in profiles.enumerated() {
            let path = "profiles[\(index)]"
            let profileMembers = try self.members(of: profile, path: path, known: ["name", "feedbacks"])
            let nameValue = try required("name", in: profileMembers, of: profile, path: path)
            let name = try string(nameValue, path: path + ".name")
            guard let section = FeedbackdLevel(rawValue: name) else {
                warn(at: nameValue, path: path + ".name",
                     "unknown profile \(nameValue.foundDescription) ignored; feedbackd knows \"full\", \"quiet\" and \"silent\"")
                continue
            }
            if !seenSections.insert(section).inserted {
                warn(at: nameValue, path: path + ".name", "profile \"\(name)\" given again; its feedbacks are added to the first")
            }
            guard let list = profileMembers["feedbacks"] else { continue }
            for (feedbackIndex, element) in try array(list, path: path + ".feedbacks").enumerated() {
                let feedbackPath = "\(path).feedbacks[\(feedbackIndex)]"
                count += 1
                if count > limits.maximumEventCount {
                    throw error(at: element, path: feedbackPath, "more feedbacks than the limit of \(limits.maximumEventCount)")
                }
                guard let feedback = try decodeFeedback(element, section: section, path: feedbackPath) else { continue }
                if let earlier = feedbacks.firstIndex(where: { $0.section == section && $0.event == feedback.event }) {
                    // feedbackd maps an event to at most one feedback per profile.
                    warn(at: element, path: feedbackPath,
                         "a second feedback for \(JSONString.quoted(feedback.event)) in \"\(name)\"; it replaces the one at line \(feedbacks[earlier].location.line)")
                    feedbacks.remove(at: earlier)
                }
                feedbacks.append(feedback)
            }
        }
        let file = FeedbackdTheme.File(name: themeName, parentName: parentName, file: fileName, feedbacks: feedbacks)
        return Decoded(file: file, warnings: warnings, parentNameLocation: parentLocation)
    }

    // MARK: Feedbacks

    private static let commonKeys: Set<String> = ["event-name", "type"]

    private mutating func decodeFeedback(
        _ value: JSONValue, section: FeedbackdLevel, path: String
    ) throws(PatternError) -> FeedbackdFeedback? {
        guard case .object = value.content else {
            throw error(at: value, path: path, "expected an object, found \(value.foundDescription)")
        }
        let all = try self.members(of: value, path: path, known: nil)
        let event = try string(try required("event-name", in: all, of: value, path: path), path: path + ".event-name")
        let typeValue = try required("type", in: all, of: value, path: path)
        let type = try string(typeValue, path: path + ".type")
        let properties: Set<String>
        switch type {
        case "VibraRumble": properties = ["duration", "count", "pause", "magnitude"]
        case "VibraPeriodic": properties = ["duration", "magnitude", "fade-in-time", "fade-in-level"]
        case "VibraPattern": properties = ["magnitudes", "durations"]
        case "Sound": properties = ["effect", "media-role"]
        case "Led": properties = ["color", "frequency"]
        case "Dummy": properties = ["duration"]
        default:
            warn(at: typeValue, path: path + ".type",
                 "unknown feedback type \(typeValue.foundDescription); the feedback is ignored")
            return nil
        }
        let members = try self.members(of: value, path: path, known: Self.commonKeys.union(properties))
        let kind: FeedbackdFeedback.Kind
        switch type {
        case "VibraRumble":
            var rumble = FeedbackdRumble()
            if let v = members["duration"] { rumble.durationMilliseconds = try milliseconds(v, path: path + ".duration") }
            if let v = members["count"] {
                rumble.count = try whole(v, path: path + ".count", minimum: 1, maximum: 1_000, what: "a count")
            }
            if let v = members["pause"] { rumble.pauseMilliseconds = try milliseconds(v, path: path + ".pause") }
            if let v = members["magnitude"] { rumble.magnitude = try magnitude(v, path: path + ".magnitude") }
            if !rumble.splits {
                warn(at: value, path: path,
                     "a duration of \(rumble.durationMilliseconds) ms leaves no rumble for \(rumble.count) × a pause of \(rumble.pauseMilliseconds) ms; played as one rumble of 1000 ms, as feedbackd does")
            }
            let end = rumble.rumbles.last.map { $0.startMilliseconds + $0.lengthMilliseconds } ?? 0
            try checkEnd(milliseconds: end, at: value, path: path)
            kind = .rumble(rumble)
        case "VibraPeriodic":
            var periodic = FeedbackdPeriodic()
            if let v = members["duration"] { periodic.durationMilliseconds = try milliseconds(v, path: path + ".duration") }
            if let v = members["magnitude"] { periodic.magnitude = try magnitude(v, path: path + ".magnitude") }
            if let v = members["fade-in-time"] { periodic.fadeInMilliseconds = try milliseconds(v, path: path + ".fade-in-time") }
            if let v = members["fade-in-level"] { periodic.fadeInLevel = try magnitude(v, path: path + ".fade-in-level") }
            try checkEnd(milliseconds: periodic.durationMilliseconds, at: value, path: path)
            kind = .periodic(periodic)
        case "VibraPattern":
            let magnitudesValue = try required("magnitudes", in: members, of: value, path: path)
            let durationsValue = try required("durations", in: members, of: value, path: path)
            let magnitudes = try array(magnitudesValue, path: path + ".magnitudes")
            let durations = try array(durationsValue, path: path + ".durations")
            guard magnitudes.count == durations.count else {
                throw error(at: durationsValue, path: path + ".durations",
                            "expected as many durations as magnitudes (\(magnitudes.count)), found \(durations.count)")
            }
            if magnitudes.count > limits.maximumControlPointsPerCurve {
                throw error(at: magnitudesValue, path: path + ".magnitudes",
                            "more steps than the limit of \(limits.maximumControlPointsPerCurve)")
            }
            var steps: [FeedbackdVibraPattern.Step] = []
            var total = 0
            for index in magnitudes.indices {
                let level = try magnitude(magnitudes[index], path: "\(path).magnitudes[\(index)]")
                let length = try milliseconds(durations[index], path: "\(path).durations[\(index)]")
                total += length
                try checkEnd(milliseconds: total, at: durations[index], path: "\(path).durations[\(index)]")
                steps.append(FeedbackdVibraPattern.Step(magnitude: level, durationMilliseconds: length))
            }
            kind = .pattern(FeedbackdVibraPattern(steps: steps))
        case "Sound":
            var sound = FeedbackdSound(effect: event)
            if let v = members["effect"] {
                sound.effect = try string(v, path: path + ".effect")
            } else {
                warn(at: value, path: path, "no \"effect\"; the event's name \(JSONString.quoted(event)) is the sound's name")
            }
            if let v = members["media-role"] { sound.mediaRole = try string(v, path: path + ".media-role") }
            kind = .sound(sound)
        case "Led":
            let color = try string(try required("color", in: members, of: value, path: path), path: path + ".color")
            let frequencyValue = try required("frequency", in: members, of: value, path: path)
            let frequency = try whole(frequencyValue, path: path + ".frequency", minimum: 0, maximum: Int(Int32.max),
                                      what: "a frequency in mHz")
            kind = .led(FeedbackdLED(color: color, frequencyMillihertz: frequency))
        default:
            var duration: Int?
            if let v = members["duration"] { duration = try milliseconds(v, path: path + ".duration") }
            kind = .dummy(durationMilliseconds: duration)
        }
        return FeedbackdFeedback(event: event, kind: kind, section: section, theme: themeName, file: fileName,
                                 location: value.location)
    }

    // MARK: Numbers

    /// A magnitude, 0…1. An integer above 1 is on feedbackd's old 0…65535 scale; anything else
    /// outside 0…1 is clamped; each with a warning.
    private mutating func magnitude(_ value: JSONValue, path: String) throws(PatternError) -> Double {
        let number = try self.number(value, path: path)
        var result = number
        if number > 1, Self.isIntegerLiteral(value) {
            result = min(number / Self.integerMagnitudeScale, 1)
            warn(at: value, path: path,
                 "integer magnitude \(value.foundDescription) read on feedbackd's 0…65535 scale as \(NumberText.decimal(result, digits: 6))")
            return result
        }
        result = min(max(number, 0), 1)
        if result != number {
            warn(at: value, path: path, "magnitude \(value.foundDescription) is outside 0…1; clamped to \(NumberText.shortest(result))")
        }
        return result
    }

    /// Whether the number was written as an integer (`7`, `0x7FFF`), as json-glib tells integers
    /// from doubles, rather than as `7.0` or `7e0`.
    private static func isIntegerLiteral(_ value: JSONValue) -> Bool {
        guard case .number(_, let text) = value.content else { return false }
        let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        return digits.hasPrefix("0x") || digits.hasPrefix("0X") || !digits.contains { $0 == "." || $0 == "e" || $0 == "E" }
    }

    private func milliseconds(_ value: JSONValue, path: String) throws(PatternError) -> Int {
        try whole(value, path: path, minimum: 0, maximum: Int(limits.maximumDuration * 1000), what: "a time in whole ms")
    }

    /// A whole number in `minimum…maximum` (feedbackd's times and counts are unsigned integers).
    private func whole(_ value: JSONValue, path: String, minimum: Int, maximum: Int, what: String) throws(PatternError) -> Int {
        guard case .number(let number, _) = value.content, number == number.rounded(),
              number >= Double(minimum) else {
            throw error(at: value, path: path, "expected \(what) ≥ \(minimum), found \(value.foundDescription)")
        }
        guard number <= Double(maximum) else {
            throw error(at: value, path: path, "expected \(what) ≤ \(maximum), found \(value.foundDescription)")
        }
        return Int(number)
    }

    private func checkEnd(milliseconds end: Int, at value: JSONValue, path: String) throws(PatternError) {
        if Double(end) > limits.maximumDuration * 1000 {
            throw error(at: value, path: path,
                        "ends at \(NumberText.shortest(Double(end) / 1000)) s, after the limit of \(NumberText.shortest(limits.maximumDuration)) s")
        }
    }

    // MARK: Typed access

    /// The members of an object by key; keys not in `known` (when given) are dropped with a warning.
    private mutating func members(
        of value: JSONValue, path: String, known: Set<String>?
    ) throws(PatternError) -> [String: JSONValue] {
        guard case .object(let members) = value.content else {
            throw error(at: value, path: path, "expected an object, found \(value.foundDescription)")
        }
        var result: [String: JSONValue] = [:]
        for member in members {
            if known?.contains(member.key) ?? true {
                result[member.key] = member.value
            } else {
                warnings.append(PatternDiagnostic(
                    file: fileName, line: member.keyLocation.line, column: member.keyLocation.column,
                    path: path.isEmpty ? member.key : path + "." + member.key, message: "unknown key ignored"))
            }
        }
        return result
    }

    private func required(
        _ key: String, in members: [String: JSONValue], of object: JSONValue, path: String
    ) throws(PatternError) -> JSONValue {
        try object.required(key, in: members, file: fileName, path: path)
    }

    private func number(_ value: JSONValue, path: String) throws(PatternError) -> Double {
        try value.number(file: fileName, path: path)
    }

    private func string(_ value: JSONValue, path: String) throws(PatternError) -> String {
        try value.string(file: fileName, path: path)
    }

    private func array(_ value: JSONValue, path: String) throws(PatternError) -> [JSONValue] {
        try value.array(file: fileName, path: path)
    }

    // MARK: Diagnostics

    private func error(at value: JSONValue, path: String, _ message: String) -> PatternError {
        value.error(file: fileName, path: path, message)
    }

    private mutating func warn(at value: JSONValue, path: String, _ message: String) {
        warnings.append(PatternDiagnostic(
            file: fileName, line: value.location.line, column: value.location.column, path: path, message: message))
    }
}
