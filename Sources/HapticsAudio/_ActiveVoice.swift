/// A voice the audio thread holds: waiting for its first period (`start == unplaced`) or playing
/// from stream position `start`.
struct _ActiveVoice {
    var command: _VoiceCommand
    var start: Int64

    static let unplaced = Int64.min
}
