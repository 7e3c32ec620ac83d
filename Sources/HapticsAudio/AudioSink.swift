/// Where the audio thread's periods go: an ALSA device, a WAV file, or nowhere.
///
/// The audio output opens the sink on the control side, then calls ``write(_:)`` once per period
/// from its audio thread (or from `AudioOutput.process()`), and ``close()`` after the thread ended.
/// `write` is on the realtime path: no allocation, no blocking lock, no logging.
public protocol AudioSink: AnyObject, Sendable {
    /// The stream the sink plays (its actual rate and period once opened).
    var format: AudioStreamFormat { get }

    /// Opens the device or file. Returns where stream position 0 will be audible when the sink
    /// knows it before any write (file and null sinks), else `nil` (a device tells after writes).
    func open() throws(AudioSinkError) -> AudioTimestamp?

    /// Writes one period: `format.periodFrames` interleaved frames of `format.channelCount`
    /// samples (stereo unless the format says otherwise) in −1…1. Blocks as long as
    /// the device needs room (that paces the audio thread). Realtime path.
    func write(_ frames: UnsafePointer<Float>) -> AudioSinkWrite

    /// Stops and closes. Control side, never concurrently with `write`.
    func close()
}
