// The public layout of a trigger effect (as dualsensectl and Nielk1's trigger-effect notes pack
// it): a mode byte, then ten parameter bytes.
//   feedback, vibration: bytes 1–2 a 10-bit mask of the active zones (little-endian), bytes 3–6 a
//     30-bit field of 3-bit values, zone n at bit 3n (strength − 1 or amplitude − 1);
//     vibration adds the frequency in Hz in byte 9.
//   weapon, bow, galloping, machine: bytes 1–2 a mask with the start and end zone bits, byte 3
//     two 3-bit values (weapon: strength − 1 alone; bow: strength − 1, snap strength − 1 << 3;
//     galloping: second foot, first foot << 3; machine: amplitude A, amplitude B << 3), then
//     galloping and machine the frequency in byte 4 and machine the period in byte 5.
// Every other byte is 0.

extension TriggerEffect {
    /// The effect's eleven bytes: the mode byte, then ten parameter bytes.
    public var bytes: [UInt8] {
        var bytes = [UInt8](repeating: 0, count: Self.byteCount)
        bytes.withUnsafeMutableBytes { pack(into: $0) }
        return bytes
    }

    /// Writes the effect's eleven bytes at the start of `buffer` (at least 11 bytes long); does not
    /// allocate.
    public func pack(into buffer: UnsafeMutableRawBufferPointer) {
        precondition(buffer.count >= Self.byteCount, "a trigger effect takes \(Self.byteCount) bytes")
        for index in 0..<Self.byteCount { buffer[index] = 0 }
        func mask(_ mask: Int) {
            buffer[1] = UInt8(truncatingIfNeeded: mask)
            buffer[2] = UInt8(truncatingIfNeeded: mask >> 8)
        }
        func zones(_ values: (Int) -> Int) {
            var active = 0
            var field: UInt32 = 0
            for zone in 0..<Self.zoneCount where values(zone) > 0 {
                active |= 1 << zone
                field |= UInt32(values(zone) - 1) << UInt32(3 * zone)
            }
            mask(active)
            for index in 0..<4 { buffer[3 + index] = UInt8(truncatingIfNeeded: field >> UInt32(8 * index)) }
        }
        func pair(_ start: Int, _ end: Int, _ low: Int, _ high: Int) {
            mask(1 << start | 1 << end)
            buffer[3] = UInt8(low | high << 3)
        }
        switch form {
        case .off:
            buffer[0] = Mode.off
        case .feedback(let zone, let strength):
            buffer[0] = Mode.feedback
            zones { $0 >= zone ? strength : 0 }
        case .multiplePositionFeedback(let strengths):
            buffer[0] = Mode.feedback
            zones { strengths[$0] }
        case .vibration(let zone, let amplitude, let frequency):
            buffer[0] = Mode.vibration
            zones { $0 >= zone ? amplitude : 0 }
            buffer[9] = UInt8(frequency)
        case .multiplePositionVibration(let amplitudes, let frequency):
            buffer[0] = Mode.vibration
            zones { amplitudes[$0] }
            buffer[9] = UInt8(frequency)
        case .weapon(let start, let end, let strength):
            buffer[0] = Mode.weapon
            pair(start, end, strength - 1, 0)
        case .bow(let start, let end, let strength, let snapStrength):
            buffer[0] = Mode.bow
            pair(start, end, strength - 1, snapStrength - 1)
        case .galloping(let start, let end, let firstFoot, let secondFoot, let frequency):
            buffer[0] = Mode.galloping
            pair(start, end, secondFoot, firstFoot)
            buffer[4] = UInt8(frequency)
        case .machine(let start, let end, let amplitudeA, let amplitudeB, let frequency, let period):
            buffer[0] = Mode.machine
            pair(start, end, amplitudeA, amplitudeB)
            buffer[4] = UInt8(frequency)
            buffer[5] = UInt8(period)
        }
    }

    /// Decodes eleven bytes in the public layout: the effect they pack, checked as if it were built
    /// by hand. Throws, saying which byte, for a debug or unknown mode, a parameter byte this
    /// library never writes (a value the firmware may mis-handle) or a value out of its range.
    public init(bytes: some Collection<UInt8>) throws(TriggerEffectError) {
        let bytes = Array(bytes)
        guard bytes.count == Self.byteCount else {
            throw .wrongCount(effect: "a trigger effect", parameter: "bytes", count: bytes.count, expected: Self.byteCount)
        }
        func zeros(from offset: Int, except: Set<Int> = []) throws(TriggerEffectError) {
            for index in offset..<Self.byteCount where !except.contains(index) && bytes[index] != 0 {
                throw .undecodable(offset: index, value: bytes[index], reason: "this mode leaves it 0")
            }
        }
        let mask = Int(bytes[1]) | Int(bytes[2]) << 8
        /// Every mode but off has a zone mask of zones 0…9 with at least one zone set.
        func checkMask() throws(TriggerEffectError) {
            guard mask >> Self.zoneCount == 0 else {
                throw .undecodable(offset: 2, value: bytes[2], reason: "the zone mask has bits above zone 9")
            }
            guard mask != 0 else { throw .undecodable(offset: 1, value: bytes[1], reason: "no zone is set") }
        }
        /// The per-zone values of a feedback or vibration field, 0 where the zone is inactive.
        func zoneValues() throws(TriggerEffectError) -> [Int] {
            try checkMask()
            let field = (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[3 + $1]) << UInt32(8 * $1) }
            var values: [Int] = []
            for zone in 0..<Self.zoneCount {
                let value = Int(field >> UInt32(3 * zone) & 7)
                if mask & 1 << zone != 0 {
                    values.append(value + 1)
                } else if value != 0 {
                    throw .undecodable(offset: 3 + 3 * zone / 8, value: bytes[3 + 3 * zone / 8], reason: "zone \(zone) is inactive but has a value")
                }
                else { values.append(0) }
            }
            guard field >> 30 == 0 else { throw .undecodable(offset: 6, value: bytes[6], reason: "bits above the 30-bit zone field are set") }
            return values
        }
        /// The start and end zones of a two-zone mask, and the two 3-bit values of byte 3.
        func pair() throws(TriggerEffectError) -> (start: Int, end: Int, low: Int, high: Int) {
            try checkMask()
            guard mask.nonzeroBitCount == 2 else {
                throw .undecodable(offset: 1, value: bytes[1], reason: "the zone mask must have exactly a start and an end zone")
            }
            guard bytes[3] < 64 else { throw .undecodable(offset: 3, value: bytes[3], reason: "only its low six bits are used") }
            return (mask.trailingZeroBitCount, Int.bitWidth - 1 - mask.leadingZeroBitCount, Int(bytes[3] & 7), Int(bytes[3] >> 3))
        }
        switch bytes[0] {
        case Mode.off:
            try zeros(from: 1)
            self = .off
        case Mode.feedback:
            try zeros(from: 7)
            self = try .multiplePositionFeedback(strengths: try zoneValues())
        case Mode.vibration:
            try zeros(from: 7, except: [9])
            self = try .multiplePositionVibration(amplitudes: try zoneValues(), frequency: Int(bytes[9]))
        case Mode.weapon:
            let (start, end, low, high) = try pair()
            guard high == 0 else { throw .undecodable(offset: 3, value: bytes[3], reason: "the strength is 3 bits") }
            try zeros(from: 4)
            self = try .weapon(start: start, end: end, strength: low + 1)
        case Mode.bow:
            let (start, end, low, high) = try pair()
            try zeros(from: 4)
            self = try .bow(start: start, end: end, strength: low + 1, snapStrength: high + 1)
        case Mode.galloping:
            let (start, end, low, high) = try pair()
            try zeros(from: 5)
            self = try .galloping(start: start, end: end, firstFoot: high, secondFoot: low, frequency: Int(bytes[4]))
        case Mode.machine:
            let (start, end, low, high) = try pair()
            try zeros(from: 6)
            self = try .machine(start: start, end: end, amplitudeA: low, amplitudeB: high, frequency: Int(bytes[4]), period: Int(bytes[5]))
        case 0xFC...0xFE:
            throw .undecodable(offset: 0, value: bytes[0], reason: "a debug mode, which leaves the trigger broken until the pad is reset")
        default:
            throw .undecodable(offset: 0, value: bytes[0], reason: "not a mode this library sends")
        }
    }
}
