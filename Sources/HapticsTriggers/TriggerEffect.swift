/// What one adaptive trigger of a DualSense does when the player pulls it: nothing, resistance from
/// a zone on, a weapon's break point, a vibration inside the trigger, or one of the firmware's
/// unofficial modes.
///
/// The trigger's travel is cut into ten zones, 0 (released) to 9 (fully pulled). Every effect is
/// checked when it is built, so no value the firmware mis-handles, and none of its debug modes
/// (0xFC–0xFE, which leave a trigger broken until the pad is reset), can ever reach a pad.
///
/// An effect is kept in its simplest form: multiple-position feedback that is one strength from a
/// zone to the end *is* ``Form/feedback(zone:strength:)``, and one with every zone at 0 is
/// ``off``. Two effects are equal exactly when they pack to the same bytes, and decoding the bytes
/// (``init(bytes:)``) gives the effect back.
public struct TriggerEffect: Hashable, Sendable {
    /// The effect and its parameters, as they are packed.
    public enum Form: Hashable, Sendable {
        /// No effect: the trigger moves freely (mode 0x05).
        case off
        /// Resistance of `strength` (1…8) from `zone` (0…9) to the end of the travel (mode 0x21).
        case feedback(zone: Int, strength: Int)
        /// A weapon's trigger: resistance of `strength` (1…8) from zone `start` (2…7) that gives way
        /// at zone `end` (start + 1…8), like a break point (mode 0x25).
        case weapon(start: Int, end: Int, strength: Int)
        /// Vibration of `amplitude` (1…8) at `frequency` Hz (1…255) from `zone` (0…9) on (mode 0x26).
        case vibration(zone: Int, amplitude: Int, frequency: Int)
        /// A resistance per zone: ten strengths, each 0 (none) to 8 (mode 0x21).
        case multiplePositionFeedback(strengths: [Int])
        /// A vibration amplitude per zone, ten of them each 0 (none) to 8, at `frequency` Hz
        /// (1…255) (mode 0x26).
        case multiplePositionVibration(amplitudes: [Int], frequency: Int)
        /// Unofficial: a bow string. Resistance of `strength` (1…8) from zone `start` (0…7) to
        /// `end` (start + 1…8), where it snaps back with `snapStrength` (1…8) (mode 0x22).
        case bow(start: Int, end: Int, strength: Int, snapStrength: Int)
        /// Unofficial: a galloping horse. Two taps per cycle between zones `start` (0…8) and `end`
        /// (start + 1…9), the first foot at `firstFoot` (0…6) and the second at `secondFoot`
        /// (firstFoot + 1…7) eighths of the cycle, `frequency` (1…255) cycles a second (mode 0x23).
        case galloping(start: Int, end: Int, firstFoot: Int, secondFoot: Int, frequency: Int)
        /// Unofficial: a machine. Vibration at `frequency` Hz (1…255) between zones `start` (0…8)
        /// and `end` (start + 1…9), alternating between amplitudes `amplitudeA` and `amplitudeB`
        /// (0…7 each) every `period` tenths of a second (0…255) (mode 0x27).
        case machine(start: Int, end: Int, amplitudeA: Int, amplitudeB: Int, frequency: Int, period: Int)
    }

    /// The effect, in its simplest form.
    public let form: Form

    private init(_ form: Form) { self.form = form }

    /// How many bytes an effect packs to: the mode byte and ten parameter bytes.
    public static let byteCount = 11
    /// How many zones a trigger's travel has.
    public static let zoneCount = 10

    /// The mode bytes, one per form of effect (the public layout's names).
    public enum Mode {
        /// Off.
        public static let off: UInt8 = 0x05
        /// Feedback and multiple-position feedback.
        public static let feedback: UInt8 = 0x21
        /// Bow (unofficial).
        public static let bow: UInt8 = 0x22
        /// Galloping (unofficial).
        public static let galloping: UInt8 = 0x23
        /// Weapon.
        public static let weapon: UInt8 = 0x25
        /// Vibration and multiple-position vibration.
        public static let vibration: UInt8 = 0x26
        /// Machine (unofficial).
        public static let machine: UInt8 = 0x27
    }
}

// MARK: - Building, each value checked

extension TriggerEffect {
    /// No effect: the trigger moves freely.
    public static let off = TriggerEffect(.off)

    /// Resistance of `strength` (1…8) from `zone` (0…9) to the end of the travel.
    public static func feedback(zone: Int, strength: Int) throws(TriggerEffectError) -> TriggerEffect {
        try check("feedback", "zone", zone, 0...9)
        try check("feedback", "strength", strength, 1...8)
        return TriggerEffect(.feedback(zone: zone, strength: strength))
    }

    /// A weapon's trigger: resistance of `strength` (1…8) from `start` (2…7) that gives way at
    /// `end` (start + 1…8).
    public static func weapon(start: Int, end: Int, strength: Int) throws(TriggerEffectError) -> TriggerEffect {
        try check("weapon", "start zone", start, 2...7)
        try check("weapon", "end zone", end, (start + 1)...8)
        try check("weapon", "strength", strength, 1...8)
        return TriggerEffect(.weapon(start: start, end: end, strength: strength))
    }

    /// Vibration of `amplitude` (1…8) at `frequency` Hz (1…255) from `zone` (0…9) on.
    public static func vibration(zone: Int, amplitude: Int, frequency: Int) throws(TriggerEffectError) -> TriggerEffect {
        try check("vibration", "zone", zone, 0...9)
        try check("vibration", "amplitude", amplitude, 1...8)
        try check("vibration", "frequency", frequency, 1...255)
        return TriggerEffect(.vibration(zone: zone, amplitude: amplitude, frequency: frequency))
    }

    /// A resistance per zone: ten `strengths`, each 0 (none) to 8.
    public static func multiplePositionFeedback(strengths: [Int]) throws(TriggerEffectError) -> TriggerEffect {
        try checkZones("multi-feedback", "strengths", strengths)
        return simplest(feedback: strengths)
    }

    /// A vibration amplitude per zone (ten `amplitudes`, each 0 to 8) at `frequency` Hz (1…255).
    public static func multiplePositionVibration(amplitudes: [Int], frequency: Int) throws(TriggerEffectError) -> TriggerEffect {
        try check("multi-vibration", "frequency", frequency, 1...255)
        try checkZones("multi-vibration", "amplitudes", amplitudes)
        return simplest(vibration: amplitudes, frequency: frequency)
    }

    /// Resistance that slopes from `startStrength` at zone `start` (0…8) to `endStrength` at zone
    /// `end` (start + 1…9), and stays at `endStrength` after it (strengths 1…8). Built as
    /// multiple-position feedback, each zone's strength rounded to the nearest step.
    public static func slopeFeedback(start: Int, end: Int, startStrength: Int, endStrength: Int) throws(TriggerEffectError) -> TriggerEffect {
        try check("slope", "start zone", start, 0...8)
        try check("slope", "end zone", end, (start + 1)...9)
        try check("slope", "start strength", startStrength, 1...8)
        try check("slope", "end strength", endStrength, 1...8)
        let span = end - start
        let strengths = (0..<zoneCount).map { zone -> Int in
            if zone < start { return 0 }
            if zone >= end { return endStrength }
            // startStrength + (endStrength − startStrength) × (zone − start) / span, rounded half
            // up, in integers: the numerator stays positive since both strengths are at least 1.
            let numerator = startStrength * span + (endStrength - startStrength) * (zone - start)
            return (2 * numerator + span) / (2 * span)
        }
        return simplest(feedback: strengths)
    }

    /// Unofficial: a bow string, resistance of `strength` (1…8) from `start` (0…7) to `end`
    /// (start + 1…8), where it snaps back with `snapStrength` (1…8).
    public static func bow(start: Int, end: Int, strength: Int, snapStrength: Int) throws(TriggerEffectError) -> TriggerEffect {
        try check("bow", "start zone", start, 0...7)
        try check("bow", "end zone", end, (start + 1)...8)
        try check("bow", "strength", strength, 1...8)
        try check("bow", "snap strength", snapStrength, 1...8)
        return TriggerEffect(.bow(start: start, end: end, strength: strength, snapStrength: snapStrength))
    }

    /// Unofficial: a galloping horse between `start` (0…8) and `end` (start + 1…9), feet at
    /// `firstFoot` (0…6) and `secondFoot` (firstFoot + 1…7), `frequency` (1…255) cycles a second.
    public static func galloping(start: Int, end: Int, firstFoot: Int, secondFoot: Int, frequency: Int) throws(TriggerEffectError) -> TriggerEffect {
        try check("galloping", "start zone", start, 0...8)
        try check("galloping", "end zone", end, (start + 1)...9)
        try check("galloping", "first foot", firstFoot, 0...6)
        try check("galloping", "second foot", secondFoot, (firstFoot + 1)...7)
        try check("galloping", "frequency", frequency, 1...255)
        return TriggerEffect(.galloping(start: start, end: end, firstFoot: firstFoot, secondFoot: secondFoot, frequency: frequency))
    }

    /// Unofficial: a machine, vibration at `frequency` Hz (1…255) between `start` (0…8) and `end`
    /// (start + 1…9), alternating between `amplitudeA` and `amplitudeB` (0…7) every `period`
    /// tenths of a second (0…255).
    public static func machine(
        start: Int, end: Int, amplitudeA: Int, amplitudeB: Int, frequency: Int, period: Int
    ) throws(TriggerEffectError) -> TriggerEffect {
        try check("machine", "start zone", start, 0...8)
        try check("machine", "end zone", end, (start + 1)...9)
        try check("machine", "amplitude A", amplitudeA, 0...7)
        try check("machine", "amplitude B", amplitudeB, 0...7)
        try check("machine", "frequency", frequency, 1...255)
        try check("machine", "period", period, 0...255)
        return TriggerEffect(.machine(start: start, end: end, amplitudeA: amplitudeA, amplitudeB: amplitudeB, frequency: frequency, period: period))
    }

    /// Checks one value. Each start is checked before the range of its end is formed from it, and
    /// every start range leaves room for an end: `(start + 1)...8` is never an empty range, which
    /// would trap.
    private static func check(_ effect: String, _ parameter: String, _ value: Int, _ allowed: ClosedRange<Int>) throws(TriggerEffectError) {
        guard allowed.contains(value) else {
            throw .outOfRange(effect: effect, parameter: parameter, value: value, allowed: allowed)
        }
    }

    private static func checkZones(_ effect: String, _ parameter: String, _ values: [Int]) throws(TriggerEffectError) {
        guard values.count == zoneCount else {
            throw .wrongCount(effect: effect, parameter: parameter, count: values.count, expected: zoneCount)
        }
        for (zone, value) in values.enumerated() {
            try check(effect, "\(parameter.dropLast()) of zone \(zone)", value, 0...8)
        }
    }

    /// Per-zone values (already checked) as the simplest effect with their bytes: off when all are
    /// 0, one value from a zone to the end as the single-zone form.
    private static func simplest(feedback strengths: [Int]) -> TriggerEffect {
        switch uniformTail(strengths) {
        case .none: TriggerEffect(.off)
        case .some((let zone, let strength))?: TriggerEffect(.feedback(zone: zone, strength: strength))
        case .some(nil): TriggerEffect(.multiplePositionFeedback(strengths: strengths))
        }
    }

    private static func simplest(vibration amplitudes: [Int], frequency: Int) -> TriggerEffect {
        switch uniformTail(amplitudes) {
        case .none: TriggerEffect(.off)
        case .some((let zone, let amplitude))?: TriggerEffect(.vibration(zone: zone, amplitude: amplitude, frequency: frequency))
        case .some(nil): TriggerEffect(.multiplePositionVibration(amplitudes: amplitudes, frequency: frequency))
        }
    }

    /// `nil` when every value is 0; `(zone, value)` when the values are 0 before `zone` and `value`
    /// from it to the end; `.some(nil)` otherwise.
    private static func uniformTail(_ values: [Int]) -> (zone: Int, value: Int)?? {
        guard let zone = values.firstIndex(where: { $0 != 0 }) else { return nil }
        let value = values[zone]
        return values[zone...].allSatisfy({ $0 == value }) ? .some((zone, value)) : .some(nil)
    }
}
