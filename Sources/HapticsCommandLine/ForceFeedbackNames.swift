import HapticsDevices

/// Names of the `EV_FF` capability codes in listings, as the kernel's `input.h` spells them, in lower case.
enum ForceFeedbackNames {
    /// The names of `codes`, in code order; unknown codes as numbers.
    static func names(_ codes: Set<ForceFeedbackCode>) -> [String] {
        codes.sorted().map(\.name)
    }

    /// The effect types only (what `devices` shows): rumble, periodic, constant, condition effects,
    /// ramp, and gain/autocenter; waveforms are details of periodic shown by `info`.
    static func effectTypes(_ codes: Set<ForceFeedbackCode>) -> [String] {
        names(codes.filter { !$0.isWaveform })
    }
}
