import HapticsSystem

/// One way to write a trigger effect as text: its name, then its numbers after a colon.
public struct TriggerEffectSyntax: Sendable {
    /// The name before the colon, e.g. `weapon`.
    public let name: String
    /// What the numbers are, as written in help, e.g. `start(2-7),end(start+1-8),strength(1-8)`.
    public let parameters: String
    /// What the effect feels like, in a few words.
    public let summary: String
    /// How many numbers follow the colon.
    let count: Int
    /// Builds the effect from exactly `count` numbers, checking each.
    let build: @Sendable ([Int]) throws(TriggerEffectError) -> TriggerEffect

    /// The form written in help: `name:parameters`, or the bare name when it takes none.
    public var usage: String { parameters.isEmpty ? name : "\(name):\(parameters)" }

    /// How many numbers the effect takes.
    public var valueCount: Int { count }

    /// The effect with exactly these numbers, in the order of ``parameters``; each is checked.
    public func effect(values: [Int]) throws(TriggerEffectError) -> TriggerEffect {
        guard values.count == count else {
            throw .wrongCount(effect: name, parameter: "numbers", count: values.count, expected: count)
        }
        return try build(values)
    }
}

/// Why a trigger effect's text could not be read; every case quotes the text, escaped for a terminal.
public enum TriggerEffectParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The name before the colon is not an effect; `validNames` lists those that are.
    case unknownEffect(String, in: String, validNames: [String])
    /// The effect takes `expected` numbers (written as `usage`), but `count` were given.
    case wrongCount(count: Int, expected: Int, usage: String, in: String)
    /// The number at 1-based `position` is not a whole number.
    case notANumber(String, position: Int, usage: String, in: String)
    /// The numbers were read but a value is out of its range.
    case invalid(TriggerEffectError, in: String)

    /// One line: the text, what is wrong, and what would have been accepted.
    public var description: String {
        switch self {
        case .unknownEffect(let name, let text, let validNames):
            return "\"\(PrintableText.escaped(text))\": unknown trigger effect \"\(PrintableText.escaped(name))\"; "
                + "valid effects: \(validNames.joined(separator: ", "))"
        case .wrongCount(let count, let expected, let usage, let text):
            return "\"\(PrintableText.escaped(text))\": \(expected) number\(expected == 1 ? "" : "s") expected, \(count) given; write \(usage)"
        case .notANumber(let value, let position, let usage, let text):
            return "\"\(PrintableText.escaped(text))\": value \(position) \"\(PrintableText.escaped(value))\" is not a whole number; write \(usage)"
        case .invalid(let error, let text):
            return "\"\(PrintableText.escaped(text))\": \(error)"
        }
    }
}

extension TriggerEffect {
    /// Every effect as text, in the order help lists them.
    public static let syntax: [TriggerEffectSyntax] = [
        TriggerEffectSyntax(name: "off", parameters: "", summary: "no effect, the trigger moves freely", count: 0) { _ in .off },
        TriggerEffectSyntax(
            name: "feedback", parameters: "zone(0-9),strength(1-8)", summary: "resistance from a zone on", count: 2
        ) { values throws(TriggerEffectError) in try .feedback(zone: values[0], strength: values[1]) },
        TriggerEffectSyntax(
            name: "weapon", parameters: "start(2-7),end(start+1-8),strength(1-8)", summary: "resistance that gives way at a break point",
            count: 3
        ) { values throws(TriggerEffectError) in try .weapon(start: values[0], end: values[1], strength: values[2]) },
        TriggerEffectSyntax(
            name: "vibration", parameters: "zone(0-9),amplitude(1-8),frequency(1-255 Hz)", summary: "vibration from a zone on", count: 3
        ) { values throws(TriggerEffectError) in try .vibration(zone: values[0], amplitude: values[1], frequency: values[2]) },
        TriggerEffectSyntax(
            name: "slope", parameters: "start(0-8),end(start+1-9),start-strength(1-8),end-strength(1-8)",
            summary: "resistance that slopes from one strength to another", count: 4
        ) { values throws(TriggerEffectError) in
            try .slopeFeedback(start: values[0], end: values[1], startStrength: values[2], endStrength: values[3])
        },
        TriggerEffectSyntax(
            name: "multi-feedback", parameters: "s0,s1,…,s9 (each zone's strength, 0-8)", summary: "a resistance per zone", count: 10
        ) { values throws(TriggerEffectError) in try .multiplePositionFeedback(strengths: values) },
        TriggerEffectSyntax(
            name: "multi-vibration", parameters: "frequency(1-255 Hz),a0,a1,…,a9 (each zone's amplitude, 0-8)",
            summary: "a vibration amplitude per zone", count: 11
        ) { values throws(TriggerEffectError) in try .multiplePositionVibration(amplitudes: Array(values[1...]), frequency: values[0]) },
        TriggerEffectSyntax(
            name: "bow", parameters: "start(0-7),end(start+1-8),strength(1-8),snap-strength(1-8)",
            summary: "unofficial: a bow string that snaps back", count: 4
        ) { values throws(TriggerEffectError) in
            try .bow(start: values[0], end: values[1], strength: values[2], snapStrength: values[3])
        },
        TriggerEffectSyntax(
            name: "galloping", parameters: "start(0-8),end(start+1-9),first-foot(0-6),second-foot(first-foot+1-7),frequency(1-255)",
            summary: "unofficial: a galloping horse", count: 5
        ) { values throws(TriggerEffectError) in
            try .galloping(start: values[0], end: values[1], firstFoot: values[2], secondFoot: values[3], frequency: values[4])
        },
        TriggerEffectSyntax(
            name: "machine",
            parameters: "start(0-8),end(start+1-9),amplitude-a(0-7),amplitude-b(0-7),frequency(1-255 Hz),period(0-255 tenths of a second)",
            summary: "unofficial: a machine alternating between two amplitudes", count: 6
        ) { values throws(TriggerEffectError) in
            try .machine(
                start: values[0], end: values[1], amplitudeA: values[2], amplitudeB: values[3], frequency: values[4], period: values[5]
            )
        },
    ]

    /// Reads an effect written as text: a name, then its numbers after a colon and separated by
    /// commas, such as `weapon:2,6,8`, `feedback:3,5`, `vibration:4,6,30` or `off` (see ``syntax``).
    public init(parsing text: String) throws(TriggerEffectParseError) {
        let colon = text.firstIndex(of: ":")
        let name = colon.map { String(text[..<$0]) } ?? text
        guard let syntax = Self.syntax.first(where: { $0.name == name }) else {
            throw .unknownEffect(name, in: text, validNames: Self.syntax.map(\.name))
        }
        let fields = colon.map { text[text.index(after: $0)...].split(separator: ",", omittingEmptySubsequences: false) } ?? []
        guard fields.count == syntax.count else {
            throw .wrongCount(count: fields.count, expected: syntax.count, usage: syntax.usage, in: text)
        }
        var values: [Int] = []
        for (index, field) in fields.enumerated() {
            // Digits only: no sign, no spaces, at most three digits (every parameter is below 256).
            guard !field.isEmpty, field.count <= 3, field.allSatisfy({ ("0"..."9").contains($0) }), let value = Int(field) else {
                throw .notANumber(String(field), position: index + 1, usage: syntax.usage, in: text)
            }
            values.append(value)
        }
        do {
            self = try syntax.effect(values: values)
        } catch {
            throw .invalid(error, in: text)
        }
    }
}

extension TriggerEffect: CustomStringConvertible {
    /// The effect as text, in the form ``init(parsing:)`` reads: `weapon:2,6,8`.
    public var description: String {
        func text(_ name: String, _ values: [Int]) -> String {
            "\(name):\(values.map(String.init).joined(separator: ","))"
        }
        switch form {
        case .off: return "off"
        case .feedback(let zone, let strength): return text("feedback", [zone, strength])
        case .weapon(let start, let end, let strength): return text("weapon", [start, end, strength])
        case .vibration(let zone, let amplitude, let frequency): return text("vibration", [zone, amplitude, frequency])
        case .multiplePositionFeedback(let strengths): return text("multi-feedback", strengths)
        case .multiplePositionVibration(let amplitudes, let frequency): return text("multi-vibration", [frequency] + amplitudes)
        case .bow(let start, let end, let strength, let snapStrength): return text("bow", [start, end, strength, snapStrength])
        case .galloping(let start, let end, let firstFoot, let secondFoot, let frequency):
            return text("galloping", [start, end, firstFoot, secondFoot, frequency])
        case .machine(let start, let end, let amplitudeA, let amplitudeB, let frequency, let period):
            return text("machine", [start, end, amplitudeA, amplitudeB, frequency, period])
        }
    }
}
