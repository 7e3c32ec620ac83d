#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import HapticsSystem

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
    private var descriptor: FileDescriptor?
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
        let descriptor: FileDescriptor
        do {
            descriptor = try FileDescriptor.open(path, .writeOnly, options: [.closeOnExec, .create, .truncate])
        } catch {
            throw failure(error)
        }
        dataBytes = 0
        let header = WAVWriter.encode(samples: [], sampleRate: format.sampleRate, channelCount: 2)
        let written = header.withUnsafeBytes { buffer in
            Result { () throws(SystemCallError) in try Self.writeAll(buffer, to: descriptor) }
        }
        if case let .failure(error) = written {
            try? descriptor.close()
            throw failure(error)
        }
        self.descriptor = descriptor
        return pacer.begin()
    }

    /// Appends one period as 16-bit samples (clamped to −1…1).
    public func write(_ frames: UnsafePointer<Float>) -> AudioSinkWrite {
        let count = 2 * format.periodFrames
        for index in 0..<count {
            conversion[index] = Self.pcm16(frames[index])
        }
        let total = count * 2
        guard let descriptor else {
            return AudioSinkWrite(status: .deviceLost(errno: .badFileDescriptor), timestamp: nil)
        }
        do {
            try Self.writeAll(UnsafeRawBufferPointer(start: conversion, count: total), to: descriptor)
        } catch {
            return AudioSinkWrite(status: .deviceLost(errno: error.errno), timestamp: nil)
        }
        dataBytes += total
        return AudioSinkWrite(status: .written, timestamp: pacer.advance())
    }

    /// Fills in the header's sizes and closes the file.
    public func close() {
        guard let descriptor else { return }
        var riffSize = UInt32(truncatingIfNeeded: 36 + dataBytes).littleEndian
        var dataSize = UInt32(truncatingIfNeeded: dataBytes).littleEndian
        // The typed descriptor has no positioned write; these two go to fixed header offsets.
        _ = pwrite(descriptor.rawValue, &riffSize, 4, 4)
        _ = pwrite(descriptor.rawValue, &dataSize, 4, 40)
        try? descriptor.close()
        self.descriptor = nil
    }

    /// A float sample as 16-bit PCM: clamped, scaled by 32 767, rounded.
    @inline(__always)
    static func pcm16(_ value: Float) -> Int16 {
        let clamped = min(max(value, -1), 1)
        return Int16((clamped * 32_767).rounded())
    }

    /// Writes all of `buffer`, however many `write()`s it takes. Does not allocate.
    private static func writeAll(
        _ buffer: UnsafeRawBufferPointer, to descriptor: FileDescriptor
    ) throws(SystemCallError) {
        var offset = 0
        while offset < buffer.count {
            offset += try descriptor.write(UnsafeRawBufferPointer(rebasing: buffer[offset...]))
        }
    }

    private func failure(_ error: SystemCallError) -> AudioSinkError {
        AudioSinkError(device: path, call: error.call, errno: error.errno, reason: error.errno.message)
    }
}
