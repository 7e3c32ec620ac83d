import CEvdev

/// Names of the `EV_FF` capability codes, as the kernel's `input.h` spells them, in lower case.
enum ForceFeedbackNames {
    static let table: [(code: Int32, name: String)] = [
        (FF_RUMBLE, "rumble"), (FF_PERIODIC, "periodic"), (FF_CONSTANT, "constant"), (FF_SPRING, "spring"),
        (FF_FRICTION, "friction"), (FF_DAMPER, "damper"), (FF_INERTIA, "inertia"), (FF_RAMP, "ramp"),
        (FF_SQUARE, "square"), (FF_TRIANGLE, "triangle"), (FF_SINE, "sine"), (FF_SAW_UP, "saw-up"),
        (FF_SAW_DOWN, "saw-down"), (FF_CUSTOM, "custom"), (FF_GAIN, "gain"), (FF_AUTOCENTER, "autocenter"),
    ]

    /// The names of `codes`, in code order; unknown codes as numbers.
    static func names(_ codes: Set<UInt16>) -> [String] {
        codes.sorted().map { code in table.first { $0.code == Int32(code) }?.name ?? String(code) }
    }

    /// The effect types only (what `devices` shows): rumble, periodic, constant, condition effects,
    /// ramp, and gain/autocenter; waveforms are details of periodic shown by `info`.
    static func effectTypes(_ codes: Set<UInt16>) -> [String] {
        let waveforms: Set<Int32> = [FF_SQUARE, FF_TRIANGLE, FF_SINE, FF_SAW_UP, FF_SAW_DOWN, FF_CUSTOM]
        return names(codes.filter { !waveforms.contains(Int32($0)) })
    }
}
