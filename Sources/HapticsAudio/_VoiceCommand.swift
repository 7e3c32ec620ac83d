/// A voice start on its way to the audio thread, or a finished voice on its way back: the voice as a
/// retained opaque pointer (released on the control side only), its frames, and its audible instant.
struct _VoiceCommand: BitwiseCopyable, @unchecked Sendable {
    var voice: UnsafeMutableRawPointer?
    var frames: UnsafePointer<Float>?
    var frameCount: Int
    var audibleAt: Int64

    static var empty: _VoiceCommand { _VoiceCommand(voice: nil, frames: nil, frameCount: 0, audibleAt: 0) }
}

/// A voice the audio thread holds: waiting for its first period (`start == unplaced`) or playing
/// from stream position `start`.
struct _ActiveVoice {
    var command: _VoiceCommand
    var start: Int64

    static let unplaced = Int64.min
}

/// A fixed-size record of an ``AudioEvent`` for the event ring.
struct _EventRecord: BitwiseCopyable {
    enum Kind: UInt8 { case none, deviceLost, underrun, late }
    var kind: Kind
    var value: Int64

    static let empty = _EventRecord(kind: .none, value: 0)

    var event: AudioEvent? {
        switch kind {
        case .none: return nil
        case .deviceLost: return .deviceLost(errno: Int32(truncatingIfNeeded: value))
        case .underrun: return .underrunRecovered(at: .init(nanoseconds: value))
        case .late: return .voiceLate(lateness: value)
        }
    }
}
