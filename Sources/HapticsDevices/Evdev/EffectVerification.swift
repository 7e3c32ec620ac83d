import HapticsSystem

/// What trying one force-feedback effect type on a device showed, beyond its capability bit.
///
/// Made by ``EvdevDevice/verifyEffects()``. The kernel does not vouch for every call alike: an
/// upload (`EVIOCSFF`) and an erase (`EVIOCRMFF`) return the driver's verdict, so they are
/// *accepted* or *rejected*. A play, a stop and a gain are `write()`s of an `EV_FF` event: evdev
/// passes the event on and reports success whatever the driver does with it (only a lost device
/// fails the write), so those are only *written*. A written play may still not be felt.
public struct EffectVerification: Hashable, Sendable {
    /// The types ``EvdevDevice/verifyEffects()`` tries, in order.
    public enum Kind: String, CaseIterable, Hashable, Sendable {
        /// `FF_RUMBLE`: an upload, a play, a stop and an erase of a weak rumble.
        case rumble
        /// `FF_PERIODIC`: the same with a weak periodic effect on the first advertised waveform.
        case periodic
        /// `FF_CONSTANT`: the same with a weak constant force.
        case constant
        /// `FF_GAIN`: the device gain written at half, then at full.
        case gain

        /// The capability code that advertises this type.
        public var code: ForceFeedbackCode {
            switch self {
            case .rumble: .rumble
            case .periodic: .periodic
            case .constant: .constant
            case .gain: .gain
            }
        }
    }

    /// One call made on the device while verifying.
    public enum Step: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
        /// The effect's upload (`EVIOCSFF`): answered by the driver.
        case upload
        /// The play (`write` of `EV_FF`, value 1): not answered by the driver.
        case play
        /// The stop (`write` of `EV_FF`, value 0): not answered by the driver.
        case stop
        /// The erase (`EVIOCRMFF`): answered by the driver.
        case erase
        /// The gain at half (`write` of `FF_GAIN` 0x8000): not answered by the driver.
        case halfGain = "half-gain"
        /// The gain back at full (`write` of `FF_GAIN` 0xFFFF): not answered by the driver.
        case fullGain = "full-gain"

        /// The system call or ioctl the step is.
        public var call: String {
            switch self {
            case .upload: "EVIOCSFF"
            case .erase: "EVIOCRMFF"
            case .play, .stop, .halfGain, .fullGain: "write"
            }
        }

        /// Whether the kernel returns the driver's verdict on this step (upload and erase), rather
        /// than only taking the event (every `write`).
        public var isAnsweredByDriver: Bool { self == .upload || self == .erase }

        /// `upload`, `play`, `stop`, `erase`, `half gain`, `full gain`.
        public var description: String {
            switch self {
            case .halfGain: "half gain"
            case .fullGain: "full gain"
            default: rawValue
            }
        }
    }

    /// How the type fared.
    public enum Outcome: Hashable, Sendable {
        /// Every call succeeded, and the driver accepted those it answers (upload and erase).
        case accepted
        /// Every call succeeded, but none is one the driver answers (the gain): nothing confirms
        /// that the device acted on it.
        case written
        /// A call failed: which one, and the errno.
        case rejected(SystemCallError)
        /// The device does not advertise the type; nothing was tried.
        case notAdvertised
    }

    /// The type tried.
    public var kind: Kind
    /// How it fared.
    public var outcome: Outcome
    /// The calls the driver answered with success, in order (uploads and erases).
    public var accepted: [Step]
    /// The calls that went through without the driver's answer, in order (plays, stops, gains).
    public var written: [Step]
    /// The waveform a periodic effect was tried with (`nil` for the other types, and when nothing
    /// was tried).
    public var waveform: ForceFeedbackCode?

    /// Creates a result.
    public init(kind: Kind, outcome: Outcome, accepted: [Step] = [], written: [Step] = [],
                waveform: ForceFeedbackCode? = nil) {
        self.kind = kind
        self.outcome = outcome
        self.accepted = accepted
        self.written = written
        self.waveform = waveform
    }

    /// What was checked, in words: `upload and erase accepted; play and stop written`,
    /// `half gain and full gain written`, `rejected: EVIOCSFF: EINVAL (Invalid argument)`,
    /// `not advertised`.
    public var summary: String {
        switch outcome {
        case let .rejected(error):
            return "rejected: \(error)"
        case .notAdvertised:
            return "not advertised"
        case .accepted, .written:
            var parts: [String] = []
            if !accepted.isEmpty { parts.append(Self.list(accepted) + " accepted") }
            if !written.isEmpty { parts.append(Self.list(written) + " written") }
            return parts.joined(separator: "; ")
        }
    }

    private static func list(_ steps: [Step]) -> String {
        let names = steps.map(\.description)
        guard names.count > 1 else { return names.joined() }
        return names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
    }
}
