/// A voice start on its way to the audio thread, or a finished voice on its way back: the voice as a
/// retained opaque pointer (released on the control side only), its frames, and its audible instant.
struct _VoiceCommand: BitwiseCopyable, @unchecked Sendable {
    var voice: UnsafeMutableRawPointer?
    var frames: UnsafePointer<Float>?
    var frameCount: Int
    var audibleAt: Int64

    static var empty: _VoiceCommand { _VoiceCommand(voice: nil, frames: nil, frameCount: 0, audibleAt: 0) }
}
