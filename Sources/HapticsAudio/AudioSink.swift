/// Where the audio thread's periods go: an ALSA device, a WAV file, or nowhere.
///
/// The audio output opens the sink on the control side, then calls ``write(_:)`` once per period
/// from its audio thread (or from `AudioOutput.process()`), and ``close()`` after the thread ended.
/// `write` is on the realtime path: no allocation, no blocking lock, no logging.
///
/// A sink on a device may also take back frames it holds but has not handed to the hardware yet
/// (``rewindable()``, ``rewind(_:)``), and let its writer wait for room or for a wake-up
/// (``waitForRoom(orReadable:)``): a stream that keeps its buffer full then still starts new sound
/// a moment after it is asked for. Sinks without a device take nothing back.
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

    /// How many of the frames written the sink can still take back: written, not yet taken by the
    /// hardware (`snd_pcm_rewindable`). Realtime path. Sinks without a device: 0.
    func rewindable() -> Int64

    /// Takes back up to `frames` of the last frames written, the latest first, so the next
    /// ``write(_:)`` replaces them (`snd_pcm_rewind`); returns how many it took back, at most
    /// ``rewindable()``. Timestamps read afterwards count the frames written without them.
    /// Realtime path. Sinks without a device: 0.
    func rewind(_ frames: Int64) -> Int64

    /// When the device played past the frames written (a free-running stream whose writer was
    /// late), moves the write position up to the device's and returns how many frames it moved
    /// over: they played as silence, and the next frame written is the one the device plays next.
    /// Else 0. Realtime path. Sinks without a device: 0.
    func skipPlayedFrames() -> Int64

    /// Waits until a period can be written without blocking, or until `descriptor` (an eventfd or
    /// a pipe) is readable, whichever comes first; returns at once when the stream is in error, so
    /// the next ``write(_:)`` recovers it. Realtime path. Sinks without a device return at once.
    func waitForRoom(orReadable descriptor: Int32)

    /// Stops and closes. Control side, never concurrently with `write`.
    func close()
}

extension AudioSink {
    /// Nothing to take back.
    public func rewindable() -> Int64 { 0 }
    /// Nothing taken back.
    public func rewind(_ frames: Int64) -> Int64 { 0 }
    /// Nothing to skip.
    public func skipPlayedFrames() -> Int64 { 0 }
    /// Returns at once: ``write(_:)`` paces the writer.
    public func waitForRoom(orReadable descriptor: Int32) {}
}
