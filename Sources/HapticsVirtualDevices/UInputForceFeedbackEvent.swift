/// What the kernel asked of a uinput force-feedback device.
public enum UInputForceFeedbackEvent: Hashable, Sendable {
    /// An `EVIOCSFF` reached the device: a new effect (`previous == nil`) or an in-place update.
    case upload(UploadedForceFeedbackEffect, previous: UploadedForceFeedbackEffect?)
    /// An effect was erased (`EVIOCRMFF`, or its uploader closed the event node).
    case erase(effectID: Int16)
    /// `EV_FF` with a non-zero value: play the effect `count` times.
    case play(effectID: Int16, count: Int32)
    /// `EV_FF` with value 0: stop the effect.
    case stop(effectID: Int16)
    /// `EV_FF`/`FF_GAIN`: the device-wide gain (0…0xFFFF).
    case gain(UInt16)
    /// `EV_FF`/`FF_AUTOCENTER`: the autocenter strength (0…0xFFFF).
    case autocenter(UInt16)
}
