/// A sink that plays nothing but keeps a stream's timing: voices are placed and counted exactly as
/// on a device. For machines without sound, and for "audio: none".
public final class NullAudioSink: AudioSink, @unchecked Sendable {
    /// The stream format.
    public let format: AudioStreamFormat
    // Touched by the control side before the thread starts and by the writer after: never at once.
    private var pacer: _StreamPacer

    /// Creates a null sink.
    public init(format: AudioStreamFormat = AudioStreamFormat(), timing: AudioSinkTiming = .realtime) {
        self.format = format
        pacer = _StreamPacer(format: format, timing: timing)
    }

    /// Starts the stream clock.
    public func open() throws(AudioSinkError) -> AudioTimestamp? {
        pacer.begin()
    }

    /// Discards the period (waiting like a device in real time).
    public func write(_ frames: UnsafePointer<Float>) -> AudioSinkWrite {
        AudioSinkWrite(status: .written, timestamp: pacer.advance())
    }

    /// Does nothing.
    public func close() {}
}
