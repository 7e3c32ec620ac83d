import HapticsPatterns
import HapticsSystem
import HapticsTestSupport
import HapticsTriggers
import Testing
@testable import HapticsVoiceCoils

/// The Bluetooth writer on a plain file standing for the hidraw node: every report it wrote, in order.
@Suite("Bluetooth HD haptics stream")
struct BluetoothHapticsStreamTests {
    let pattern = Pattern(events: [
        PatternEvent(kind: .hapticTransient, time: 0, parameters: EventParameters(hapticIntensity: 1, hapticSharpness: 1)),
        PatternEvent(kind: .hapticContinuous, time: 0.02, duration: 0.03, parameters: EventParameters(hapticSharpness: 0.2)),
    ])

    func makeStream() throws -> (BluetoothHapticsStream, path: String, folder: TemporaryFolder) {
        let folder = try TemporaryFolder()
        try folder.write([UInt8](), to: "hidraw0")
        let path = folder.path + "/hidraw0"
        return (try BluetoothHapticsStream(node: TriggerNode(path: path, transport: .bluetooth)), path, folder)
    }

    func reports(in path: String) throws -> [[UInt8]] {
        // The writer thread may append while the file is read (a changed file is an error): read again.
        var read = try? FileDescriptor.readContents(ofFile: path, maximumSize: 1 << 20)
        for _ in 0..<10 where read == nil {
            SystemMonotonicClock.sleep(until: .now + .milliseconds(1))
            read = try? FileDescriptor.readContents(ofFile: path, maximumSize: 1 << 20)
        }
        let bytes = try read ?? FileDescriptor.readContents(ofFile: path, maximumSize: 1 << 20)
        return stride(from: 0, to: bytes.count, by: 142).map { Array(bytes[$0..<min($0 + 142, bytes.count)]) }
    }

    /// Waits up to 5 s for `count` reports in `path`.
    func wait(for count: Int, in path: String) throws {
        let deadline = MonotonicInstant.now + .seconds(5)
        while try reports(in: path).count < count && MonotonicInstant.now < deadline {
            SystemMonotonicClock.sleep(until: .now + .milliseconds(5))
        }
    }

    /// The reports the pattern should give, numbered from `first`: rendered in one go, cut in 32-frame reports.
    func expected(from first: UInt32) -> [[UInt8]] {
        var renderer = WaveformRenderer(pattern, sampleRate: 3_000)
        let count = Int((renderer.frameCount + 31) / 32)
        var waveform = [Float](repeating: 0, count: 32 * count)
        waveform.withUnsafeMutableBufferPointer { renderer.render(from: 0, into: $0) }
        var samples = [Int8](repeating: 0, count: 64 * count)
        waveform.withUnsafeBufferPointer { wave in
            samples.withUnsafeMutableBufferPointer { VoiceCoilFrames.bluetoothFrames(wave.baseAddress!, count: 32 * count, into: $0.baseAddress!) }
        }
        return (0..<count).map { index in
            samples[(64 * index)..<(64 * index + 64)].withUnsafeBufferPointer {
                DualSenseHapticsReport(frames: $0, number: first + UInt32(index)).bytes
            }
        }
    }

    @Test("a pattern becomes its reports, numbered on, none before the instant, nothing after its end")
    func plays() throws {
        let (stream, path, folder) = try makeStream()
        defer { folder.remove() }
        // 50 ms at 3 kHz: 150 frames, 5 reports (the last one padded with silence).
        let start = MonotonicInstant.now + .milliseconds(30)
        try stream.play(pattern, at: start)
        #expect(try reports(in: path).isEmpty || MonotonicInstant.now >= start)
        try wait(for: 5, in: path)
        #expect(MonotonicInstant.now >= start + .nanoseconds(4 * 32_000_000 / 3))
        SystemMonotonicClock.sleep(until: .now + .milliseconds(40))
        #expect(try reports(in: path) == expected(from: 0))
        #expect(stream.reportsWritten == 5)

        // The next play numbers on.
        try stream.play(pattern)
        try wait(for: 10, in: path)
        stream.close()
        #expect(try reports(in: path).dropFirst(5).elementsEqual(expected(from: 5)))
        #expect(throws: TriggerDeviceError.closed(node: path)) { try stream.play(pattern) }
    }

    @Test("nothing is written once stop returns")
    func stops() throws {
        let (stream, path, folder) = try makeStream()
        defer { folder.remove() }
        let long = Pattern(events: [PatternEvent(kind: .hapticContinuous, time: 0, duration: 10)])
        try stream.play(long)
        try wait(for: 2, in: path)
        stream.stop()
        let written = try reports(in: path).count
        SystemMonotonicClock.sleep(until: .now + .milliseconds(60))
        #expect(try reports(in: path).count == written)
        #expect(written >= 2 && written < 900)
        stream.close()
    }
}
