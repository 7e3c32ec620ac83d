#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A sink that records the stream to a 16-bit stereo WAV file.
///
/// Each period is converted into a buffer allocated at open and appended with one `write()`; the
/// RIFF and data sizes are filled in at ``close()``. With ``AudioSinkTiming/offline(start:)`` it
/// renders faster than real time and deterministically: a voice scheduled audible at `start + t`
/// lands at frame round(t × rate).
public final class WAVFileSink: AudioSink, @unchecked Sendable {
    /// The stream format (always written as 16-bit PCM).
    public let format: AudioStreamFormat
    /// The file.
    public let path: String
    private var pacer: _StreamPacer
    private var descriptor: Int32 = -1
    private var dataBytes = 0
    private let conversion: UnsafeMutablePointer<Int16>

    /// Creates a sink writing `path` (replaced on open).
    public init(path: String, format: AudioStreamFormat = AudioStreamFormat(), timing: AudioSinkTiming) {
        self.path = path
        self.format = format
        pacer = _StreamPacer(format: format, timing: timing)
        conversion = .allocate(capacity: 2 * format.periodFrames)
    }

    deinit {
        close()
        conversion.deallocate()
    }

    /// Creates the file with a provisional header and starts the stream clock.
    public func open() throws(AudioSinkError) -> AudioTimestamp? {
        let descriptor = Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw failure("open") }
        self.descriptor = descriptor
        dataBytes = 0
        let header = WAVWriter.encode(samples: [], sampleRate: format.sampleRate, channelCount: 2)
        guard writeAll(header) else {
            let error = failure("write")
            Glibc.close(descriptor)
            self.descriptor = -1
            throw error
        }
        return pacer.begin()
    }

    /// Appends one period as 16-bit samples (clamped to −1…1).
    public func write(_ frames: UnsafePointer<Float>) -> AudioSinkWrite {
        let count = 2 * format.periodFrames
        for index in 0..<count {
            conversion[index] = Self.pcm16(frames[index])
        }
        var offset = 0
        let total = count * 2
        while offset < total {
            let written = Glibc.write(descriptor, UnsafeRawPointer(conversion) + offset, total - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return AudioSinkWrite(status: .deviceLost(errno: errno), timestamp: nil)
            }
            offset += written
        }
        dataBytes += total
        return AudioSinkWrite(status: .written, timestamp: pacer.advance())
    }

    /// Fills in the header's sizes and closes the file.
    public func close() {
        guard descriptor >= 0 else { return }
        var riffSize = UInt32(truncatingIfNeeded: 36 + dataBytes).littleEndian
        var dataSize = UInt32(truncatingIfNeeded: dataBytes).littleEndian
        _ = pwrite(descriptor, &riffSize, 4, 4)
        _ = pwrite(descriptor, &dataSize, 4, 40)
        Glibc.close(descriptor)
        descriptor = -1
    }

    /// A float sample as 16-bit PCM: clamped, scaled by 32 767, rounded.
    @inline(__always)
    static func pcm16(_ value: Float) -> Int16 {
        let clamped = min(max(value, -1), 1)
        return Int16((clamped * 32_767).rounded())
    }

    private func writeAll(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += written
            }
            return true
        }
    }

    private func failure(_ call: String) -> AudioSinkError {
        AudioSinkError(device: path, call: call, errno: errno, reason: String(cString: strerror(errno)))
    }
}
