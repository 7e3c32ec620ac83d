/// A voice the audio thread holds: waiting for its first period (`start == unplaced`) or playing
/// from stream position `start`. A cancelled voice has `cancelAt` (its silencing instant, `none`
/// when not cancelled), and once that instant's stream position is known, `fadeStart`: the
/// position its fade-out begins at (`unplaced` until then). A voice made as it plays keeps its own
/// place in its program (`cursor`).
struct _ActiveVoice {
    var command: _VoiceCommand
    var start: Int64
    var cancelAt: Int64 = _ActiveVoice.none
    var fadeStart: Int64 = _ActiveVoice.unplaced
    var cursor = _VoiceCursor()

    static let unplaced = Int64.min
    static let none = Int64.max
}
