/// A voice the audio thread holds: waiting for its first period (`start == unplaced`) or playing
/// from stream position `start`. A cancelled voice has `cancelAt` (its silencing instant, `none`
/// when not cancelled), and once that instant's stream position is known, `fadeStart`: the
/// position its fade-out begins at (`unplaced` until then).
struct _ActiveVoice {
    var command: _VoiceCommand
    var start: Int64
    var cancelAt: Int64 = _ActiveVoice.none
    var fadeStart: Int64 = _ActiveVoice.unplaced

    static let unplaced = Int64.min
    static let none = Int64.max
}
