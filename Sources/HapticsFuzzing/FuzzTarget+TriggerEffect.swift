import HapticsSystem
import HapticsTriggers

extension FuzzTarget {
    /// The trigger effect text parser and the effect and report encoders of `HapticsTriggers`, on
    /// bytes as text (what `haptics triggers --left` reads) and, from their first eleven bytes, as
    /// a packed effect.
    ///
    /// Beyond not crashing: every effect the parser accepts packs to eleven bytes that are never a
    /// debug mode and decode back to the same effect, its text reads back as itself, and both
    /// reports built from it flag nothing but the trigger bits (the Bluetooth one with a correct
    /// CRC); eleven bytes that decode pack back to exactly those bytes.
    public static let triggerEffect = FuzzTarget(
        name: "trigger-effect",
        summary: "trigger effect parser and encoders (HapticsTriggers): text → effect → bytes → effect; bytes → effect → bytes",
        seedSources: [.files(folder: "Tests/FuzzSeeds/trigger-effect", suffix: "")],
        body: { input, _ in checkTriggerEffect(input) })

    static func checkTriggerEffect(_ input: [UInt8]) {
        if input.count >= TriggerEffect.byteCount {
            let packed = Array(input.prefix(TriggerEffect.byteCount))
            do {
                let effect = try TriggerEffect(bytes: packed)
                precondition(effect.bytes == packed, "decoded bytes pack differently")
            } catch {
                _ = error.description
            }
        }
        let effect: TriggerEffect
        do {
            effect = try TriggerEffect(parsing: String(decoding: input, as: UTF8.self))
        } catch {
            _ = error.description   // errors are printed: their text must be sound too
            return
        }
        let bytes = effect.bytes
        precondition(bytes.count == TriggerEffect.byteCount, "an effect packs to \(bytes.count) bytes")
        precondition(!(0xFC...0xFE).contains(bytes[0]), "a debug mode was built")
        do {
            let decoded = try TriggerEffect(bytes: bytes)
            precondition(decoded == effect, "\(effect) does not decode back to itself")
            let read = try TriggerEffect(parsing: effect.description)
            precondition(read == effect, "\(effect) does not read back as itself")
        } catch {
            preconditionFailure("\(effect): \(error)")
        }
        for transport in [DualSenseTransport.usb, .bluetooth] {
            let report = DualSenseTriggerReport(transport: transport, left: effect, right: effect, sequence: 15)
            let flags = report.bytes[report.fieldsOffset...]
            precondition(flags.first == DualSenseTriggerReport.leftTriggerFlag | DualSenseTriggerReport.rightTriggerFlag,
                         "a flag beyond the trigger bits is set")
            precondition(flags.dropFirst().first == 0, "valid_flag1 is set")
            precondition(Array(report.bytes[report.leftTriggerOffset..<(report.leftTriggerOffset + 11)]) == bytes)
            precondition(Array(report.bytes[report.rightTriggerOffset..<(report.rightTriggerOffset + 11)]) == bytes)
            if transport == .bluetooth {
                let end = report.bytes.count - 4
                let crc = CRC32.checksum([DualSenseTriggerReport.bluetoothCRCSeed] + report.bytes[..<end])
                precondition(report.bytes[end...].elementsEqual((0..<4).map { UInt8(truncatingIfNeeded: crc >> (8 * $0)) }), "wrong CRC")
            }
        }
    }
}
