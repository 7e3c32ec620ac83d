/// One command on its way to the audio thread, or a finished voice on its way back.
///
/// A voice start carries the voice as a retained opaque pointer (released on the control side only),
/// its frames (or the program that makes them as they play), its audible instant, gain and group. A cancellation carries no voice: `audibleAt` is
/// the instant the voices of `group` (of every group for `.cancelAll`) go silent from.
struct _VoiceCommand: BitwiseCopyable, @unchecked Sendable {
    enum Kind: UInt8, BitwiseCopyable {
        case voice
        case cancelGroup
        case cancelAll
    }

    var kind: Kind
    var voice: UnsafeMutableRawPointer?
    var frames: UnsafePointer<Float>?
    var program: UnsafePointer<_VoiceProgram>?
    var frameCount: Int
    var audibleAt: Int64
    var gain: Float
    var group: UInt64

    static var empty: _VoiceCommand {
        _VoiceCommand(kind: .voice, voice: nil, frames: nil, program: nil, frameCount: 0, audibleAt: 0, gain: 1,
                      group: 0)
    }

    /// Whether a cancellation reaches a voice of `group`.
    func cancels(group voiceGroup: UInt64) -> Bool {
        kind == .cancelAll || (kind == .cancelGroup && group == voiceGroup)
    }
}
