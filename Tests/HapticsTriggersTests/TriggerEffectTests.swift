import Testing
@testable import HapticsTriggers

/// Effects packed byte for byte as the public layout says, worked out by hand in the comments.
@Suite("Trigger effects")
struct TriggerEffectTests {
    @Test("scaled: strengths and amplitudes to the nearest step, at least 1 where needed; 1 and 0 are the ends")
    func scaled() throws {
        let weapon = try TriggerEffect.weapon(start: 2, end: 6, strength: 8)
        #expect(weapon.scaled(by: 0.5) == (try .weapon(start: 2, end: 6, strength: 4)))
        #expect(weapon.scaled(by: 1) == weapon && weapon.scaled(by: 2) == weapon)
        #expect(weapon.scaled(by: 0) == .off && weapon.scaled(by: .nan) == .off)
        // 5 × 0.3 = 1.5 rounds to 2; 1 × 0.1 stays at the floor of 1.
        #expect(try TriggerEffect.feedback(zone: 3, strength: 5).scaled(by: 0.3) == .feedback(zone: 3, strength: 2))
        #expect(try TriggerEffect.feedback(zone: 3, strength: 1).scaled(by: 0.1) == .feedback(zone: 3, strength: 1))
        #expect(try TriggerEffect.vibration(zone: 4, amplitude: 6, frequency: 30).scaled(by: 0.5)
            == .vibration(zone: 4, amplitude: 3, frequency: 30))
        // Zones with no strength stay without; two strengths that meet become the simplest form.
        #expect(try TriggerEffect.multiplePositionFeedback(strengths: [0, 0, 1, 2, 2, 2, 2, 2, 2, 2]).scaled(by: 0.25)
            == .feedback(zone: 2, strength: 1))
        #expect(try TriggerEffect.multiplePositionFeedback(strengths: [0, 0, 1, 4, 8, 8, 8, 8, 8, 8]).scaled(by: 0.25)
            == .multiplePositionFeedback(strengths: [0, 0, 1, 1, 2, 2, 2, 2, 2, 2]))
        #expect(try TriggerEffect.multiplePositionVibration(amplitudes: [0, 8, 8, 8, 8, 8, 8, 8, 8, 4], frequency: 9).scaled(by: 0.5)
            == .multiplePositionVibration(amplitudes: [0, 4, 4, 4, 4, 4, 4, 4, 4, 2], frequency: 9))
        #expect(try TriggerEffect.bow(start: 1, end: 5, strength: 8, snapStrength: 3).scaled(by: 0.5)
            == .bow(start: 1, end: 5, strength: 4, snapStrength: 2))
        #expect(try TriggerEffect.machine(start: 1, end: 8, amplitudeA: 0, amplitudeB: 7, frequency: 40, period: 5).scaled(by: 0.5)
            == .machine(start: 1, end: 8, amplitudeA: 0, amplitudeB: 4, frequency: 40, period: 5))
        let galloping = try TriggerEffect.galloping(start: 0, end: 9, firstFoot: 2, secondFoot: 5, frequency: 3)
        #expect(galloping.scaled(by: 0.5) == galloping)
    }

    @Test("off is mode 0x05 and ten zero bytes")
    func off() {
        #expect(TriggerEffect.off.bytes == [0x05, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
    }

    @Test("feedback sets zones 3 to 9 in the mask and strength − 1 in each zone's three bits")
    func feedback() throws {
        // Mask 0b11_1111_1000 = 0x03F8. Strength 5 → 4 (0b100) at bit 3z for z = 3…9:
        // 0x800 + 0x4000 + 0x20000 + 0x100000 + 0x800000 + 0x4000000 + 0x20000000 = 0x24924800.
        let effect = try TriggerEffect.feedback(zone: 3, strength: 5)
        #expect(effect.bytes == [0x21, 0xF8, 0x03, 0x00, 0x48, 0x92, 0x24, 0, 0, 0, 0])
        #expect(effect.description == "feedback:3,5")
    }

    @Test("weapon sets the start and end zone bits and strength − 1")
    func weapon() throws {
        // 1 << 2 | 1 << 6 = 0x44.
        #expect(try TriggerEffect.weapon(start: 2, end: 6, strength: 8).bytes == [0x25, 0x44, 0x00, 0x07, 0, 0, 0, 0, 0, 0, 0])
        #expect(try TriggerEffect.weapon(start: 7, end: 8, strength: 1).bytes == [0x25, 0x80, 0x01, 0x00, 0, 0, 0, 0, 0, 0, 0])
    }

    @Test("vibration packs like feedback with the frequency in parameter byte 9")
    func vibration() throws {
        // Mask zones 4…9 = 0x03F0; amplitude 6 → 5 (0b101) at bit 3z: 0x2DB6D000; 30 Hz = 0x1E.
        let effect = try TriggerEffect.vibration(zone: 4, amplitude: 6, frequency: 30)
        #expect(effect.bytes == [0x26, 0xF0, 0x03, 0x00, 0xD0, 0xB6, 0x2D, 0, 0, 0x1E, 0])
    }

    @Test("bow, galloping and machine pack a two-zone mask and two 3-bit values")
    func unofficial() throws {
        // Bow: mask 1<<1 | 1<<4 = 0x12; (3 − 1) | (5 − 1) << 3 = 0x22.
        #expect(try TriggerEffect.bow(start: 1, end: 4, strength: 3, snapStrength: 5).bytes == [0x22, 0x12, 0, 0x22, 0, 0, 0, 0, 0, 0, 0])
        // Galloping: mask 0x201; second foot 5 | first foot 2 << 3 = 0x15; 10 Hz.
        #expect(try TriggerEffect.galloping(start: 0, end: 9, firstFoot: 2, secondFoot: 5, frequency: 10).bytes
            == [0x23, 0x01, 0x02, 0x15, 0x0A, 0, 0, 0, 0, 0, 0])
        // Machine: mask 0x202; 7 | 3 << 3 = 0x1F; 40 Hz; period 5.
        #expect(try TriggerEffect.machine(start: 1, end: 9, amplitudeA: 7, amplitudeB: 3, frequency: 40, period: 5).bytes
            == [0x27, 0x02, 0x02, 0x1F, 0x28, 0x05, 0, 0, 0, 0, 0])
    }

    @Test("multiple-position effects keep their simplest form")
    func simplestForm() throws {
        #expect(try TriggerEffect.multiplePositionFeedback(strengths: Array(repeating: 0, count: 10)) == .off)
        #expect(try TriggerEffect.multiplePositionFeedback(strengths: [0, 0, 0, 5, 5, 5, 5, 5, 5, 5]) == .feedback(zone: 3, strength: 5))
        #expect(try TriggerEffect.multiplePositionVibration(amplitudes: [0, 0, 0, 0, 6, 6, 6, 6, 6, 6], frequency: 30)
            == .vibration(zone: 4, amplitude: 6, frequency: 30))
        let ramp = try TriggerEffect.multiplePositionFeedback(strengths: [1, 2, 3, 4, 5, 6, 7, 8, 0, 0])
        // Mask 0x00FF; values 0…7 at bits 0, 3, …, 21: 0o76543210 = 0xFAC688.
        #expect(ramp.bytes == [0x21, 0xFF, 0x00, 0x88, 0xC6, 0xFA, 0x00, 0, 0, 0, 0])
        #expect(ramp.description == "multi-feedback:1,2,3,4,5,6,7,8,0,0")
    }

    @Test("slope feedback rounds each zone's strength to the nearest step")
    func slope() throws {
        // From 1 at zone 2 to 8 at zone 6: 1, 2.75, 4.5, 6.25, then 8 to the end.
        let effect = try TriggerEffect.slopeFeedback(start: 2, end: 6, startStrength: 1, endStrength: 8)
        #expect(effect.form == .multiplePositionFeedback(strengths: [0, 0, 1, 3, 5, 6, 8, 8, 8, 8]))
        #expect(try TriggerEffect.slopeFeedback(start: 0, end: 9, startStrength: 4, endStrength: 4) == .feedback(zone: 0, strength: 4))
    }

    @Test("every value out of its range is refused, naming the effect, the value and the range")
    func ranges() {
        #expect(throws: TriggerEffectError.outOfRange(effect: "weapon", parameter: "start zone", value: 1, allowed: 2...7)) {
            try TriggerEffect.weapon(start: 1, end: 6, strength: 8)
        }
        #expect(throws: TriggerEffectError.outOfRange(effect: "weapon", parameter: "end zone", value: 9, allowed: 5...8)) {
            try TriggerEffect.weapon(start: 4, end: 9, strength: 8)
        }
        #expect(throws: TriggerEffectError.outOfRange(effect: "feedback", parameter: "strength", value: 0, allowed: 1...8)) {
            try TriggerEffect.feedback(zone: 0, strength: 0)
        }
        #expect(throws: TriggerEffectError.outOfRange(effect: "vibration", parameter: "frequency", value: 256, allowed: 1...255)) {
            try TriggerEffect.vibration(zone: 0, amplitude: 1, frequency: 256)
        }
        #expect(throws: TriggerEffectError.outOfRange(effect: "galloping", parameter: "second foot", value: 2, allowed: 3...7)) {
            try TriggerEffect.galloping(start: 0, end: 9, firstFoot: 2, secondFoot: 2, frequency: 1)
        }
        #expect(throws: TriggerEffectError.wrongCount(effect: "multi-feedback", parameter: "strengths", count: 3, expected: 10)) {
            try TriggerEffect.multiplePositionFeedback(strengths: [1, 2, 3])
        }
        #expect(throws: TriggerEffectError.outOfRange(effect: "multi-vibration", parameter: "amplitude of zone 2", value: 9, allowed: 0...8)) {
            try TriggerEffect.multiplePositionVibration(amplitudes: [0, 0, 9, 0, 0, 0, 0, 0, 0, 0], frequency: 20)
        }
        #expect(TriggerEffectError.outOfRange(effect: "weapon", parameter: "end zone", value: 9, allowed: 5...8).description
            == "weapon end zone 9 is outside 5…8")
    }

    @Test("decoding the bytes of an effect gives the effect back")
    func decoding() throws {
        let effects: [TriggerEffect] = [
            .off, try .feedback(zone: 0, strength: 8), try .weapon(start: 3, end: 8, strength: 2),
            try .vibration(zone: 9, amplitude: 1, frequency: 255), try .slopeFeedback(start: 2, end: 6, startStrength: 1, endStrength: 8),
            try .multiplePositionVibration(amplitudes: [8, 0, 1, 0, 2, 0, 3, 0, 4, 0], frequency: 1),
            try .bow(start: 0, end: 8, strength: 8, snapStrength: 1), try .galloping(start: 8, end: 9, firstFoot: 6, secondFoot: 7, frequency: 255),
            try .machine(start: 0, end: 1, amplitudeA: 0, amplitudeB: 7, frequency: 1, period: 255),
        ]
        for effect in effects {
            #expect(try TriggerEffect(bytes: effect.bytes) == effect)
        }
    }

    @Test("bytes this library never writes do not decode, and the error names the byte")
    func undecodable() {
        #expect(throws: TriggerEffectError.undecodable(offset: 0, value: 0xFC, reason: "a debug mode, which leaves the trigger broken until the pad is reset")) {
            try TriggerEffect(bytes: [0xFC, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        }
        #expect(throws: TriggerEffectError.undecodable(offset: 5, value: 1, reason: "this mode leaves it 0")) {
            try TriggerEffect(bytes: [0x05, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0])
        }
        #expect(throws: TriggerEffectError.undecodable(offset: 3, value: 0x01, reason: "zone 0 is inactive but has a value")) {
            try TriggerEffect(bytes: [0x21, 0x02, 0, 0x01, 0, 0, 0, 0, 0, 0, 0])
        }
        #expect(throws: TriggerEffectError.undecodable(offset: 1, value: 0x07, reason: "the zone mask must have exactly a start and an end zone")) {
            try TriggerEffect(bytes: [0x25, 0x07, 0, 0x01, 0, 0, 0, 0, 0, 0, 0])
        }
        #expect(throws: TriggerEffectError.outOfRange(effect: "weapon", parameter: "start zone", value: 1, allowed: 2...7)) {
            try TriggerEffect(bytes: [0x25, 0x12, 0, 0x01, 0, 0, 0, 0, 0, 0, 0])
        }
        #expect(TriggerEffectError.undecodable(offset: 0, value: 0x05, reason: "x").description == "trigger effect byte 0 is 0x05: x")
    }
}
