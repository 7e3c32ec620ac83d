#if canImport(Glibc)
import Glibc
#endif
import HapticsPatterns
import HapticsSoundAnalysis
import HapticsSystem
import HapticsTestSupport
import HapticsTriggers
import Testing
@testable import HapticsVoiceCoils

/// Drive samples fed live to the HD streams: where they land, how they mix with a pattern, what a
/// stop leaves.
@Suite("Live drive samples on the HD streams")
struct LiveDriveTests {
    let origin = MonotonicInstant(nanoseconds: 5_000_000_000)

    /// `count` samples of a ramp from `first` in steps of 1/1000: each one tells where it came from.
    static func ramp(_ count: Int, from first: Int = 0) -> [Float] { (0..<count).map { Float(first + $0) / 1_000 } }

    func openStream() throws -> (RecordingCard, USBHapticsStream) {
        let card = RecordingCard(origin: origin)
        let stream = USBHapticsStream(sink: card, device: "recording")
        try stream.open()
        return (card, stream)
    }

    @Test("USB: samples fed for an instant start on its frame, on channels 2 and 3, blocks continuing exactly")
    func usbPlacesSamples() throws {
        let (card, stream) = try openStream()
        // 12.5 ms after position 0 is frame 600; the second block's instant (100 frames on) is
        // rounded down to the nanosecond, and still continues the first.
        #expect(Self.ramp(100).withUnsafeBufferPointer { stream.feed($0, at: origin + .microseconds(12_500)) })
        #expect(Self.ramp(150, from: 100).withUnsafeBufferPointer { stream.feed($0, at: origin + .nanoseconds(12_500_000 + 2_083_333)) })
        for _ in 0..<20 { stream.process() }
        let expected = [Float](repeating: 0, count: 600) + Self.ramp(250) + [Float](repeating: 0, count: 110)
        #expect(card.channel(2) == expected)
        #expect(card.channel(3) == expected)
        #expect(card.channel(0).allSatisfy { $0 == 0 } && card.channel(1).allSatisfy { $0 == 0 })
        #expect(stream.liveSamplesDropped == (0, 0))
        stream.close()
    }

    @Test("USB: samples add to a pattern playing at the same time")
    func usbMixesWithPattern() throws {
        let (card, stream) = try openStream()
        let pattern = Pattern(events: [PatternEvent(kind: .hapticContinuous, time: 0, duration: 0.005, parameters: EventParameters(hapticIntensity: 0.5))])
        var renderer = WaveformRenderer(pattern, sampleRate: 48_000)
        var rendered = [Float](repeating: 0, count: Int(renderer.frameCount))
        rendered.withUnsafeMutableBufferPointer { renderer.render(from: 0, into: $0) }
        stream.play(pattern, at: origin + .milliseconds(2))
        _ = Self.ramp(480).withUnsafeBufferPointer { stream.feed($0, at: origin + .milliseconds(3)) }
        for _ in 0..<10 { stream.process() }
        var expected = [Float](repeating: 0, count: 480)
        for (index, sample) in rendered.enumerated() { expected[96 + index] = sample }
        #expect(rendered.count == 240)
        // Frames 96..<336 hold the pattern, 144..<480 (the end of what was written) the ramp.
        for (index, sample) in Self.ramp(336).enumerated() { expected[144 + index] += sample }
        #expect(card.channel(2) == expected)
        stream.close()
    }

    @Test("USB: nothing fed before a stop plays after it; samples for frames written already are dropped")
    func usbStopAndLate() throws {
        let (card, stream) = try openStream()
        _ = Self.ramp(960).withUnsafeBufferPointer { stream.feed($0, at: origin + .milliseconds(5)) }
        for _ in 0..<6 { stream.process() }
        stream.stop()
        for _ in 0..<4 { stream.process() }
        // Frames 240..<288 played; from 288 on, silence.
        let left = card.channel(2)
        #expect(Array(left[240..<288]) == Self.ramp(48))
        #expect(left[..<240].allSatisfy { $0 == 0 } && left[288...].allSatisfy { $0 == 0 })

        // Fed for frame 432 when frames up to 480 are written: the first 48 are late, the rest plays.
        _ = Self.ramp(96).withUnsafeBufferPointer { stream.feed($0, at: origin + .milliseconds(9)) }
        stream.process()
        #expect(Array(card.channel(2)[480..<528]) == Self.ramp(48, from: 48))
        #expect(stream.liveSamplesDropped == (0, 48))
        stream.close()
    }

    @Test("USB: discarding the fed samples leaves the pattern playing")
    func usbDiscardKeepsPattern() throws {
        let (card, stream) = try openStream()
        let pattern = Pattern(events: [PatternEvent(kind: .hapticContinuous, time: 0, duration: 0.01, parameters: EventParameters(hapticIntensity: 0.5))])
        var renderer = WaveformRenderer(pattern, sampleRate: 48_000)
        var rendered = [Float](repeating: 0, count: Int(renderer.frameCount))
        rendered.withUnsafeMutableBufferPointer { renderer.render(from: 0, into: $0) }
        stream.play(pattern, at: origin)
        _ = [Float](repeating: 0.25, count: 480).withUnsafeBufferPointer { stream.feed($0, at: origin) }
        for _ in 0..<4 { stream.process() }
        stream.discardFedSamples()
        for _ in 0..<8 { stream.process() }
        let left = card.channel(2)
        #expect(Array(left[..<192]) == rendered[..<192].map { $0 + 0.25 })
        #expect(Array(left[192..<480]) == Array(rendered[192..<480]))
        #expect(left[480...].allSatisfy { $0 == 0 })
        stream.close()
    }

    @Test("USB: a full queue refuses a whole block and says so")
    func usbRefusesWhenFull() throws {
        let (_, stream) = try openStream()
        let one: [Float] = [0.5]
        for index in 0..<256 {
            #expect(one.withUnsafeBufferPointer { stream.feed($0, at: origin + .milliseconds(Int64(index))) })
        }
        #expect(!one.withUnsafeBufferPointer { stream.feed($0, at: origin + .seconds(1)) })
        #expect(stream.liveSamplesDropped == (1, 0))
        // A period drains the queue: room again.
        stream.process()
        #expect(one.withUnsafeBufferPointer { stream.feed($0, at: origin + .seconds(1)) })
        stream.close()
    }

    func makeNode() throws -> (TriggerNode, path: String, folder: TemporaryFolder) {
        let folder = try TemporaryFolder()
        try folder.write([UInt8](), to: "hidraw0")
        let path = folder.path + "/hidraw0"
        return (TriggerNode(path: path, transport: .bluetooth), path, folder)
    }

    /// The bytes written to `path`, once `count` bytes are there (or 5 s passed).
    func bytes(in path: String, atLeast count: Int) throws -> [UInt8] {
        let deadline = MonotonicInstant.now + .seconds(5)
        while true {
            let read = try? FileDescriptor.readContents(ofFile: path, maximumSize: 1 << 20)
            if let read, read.count >= count || MonotonicInstant.now > deadline { return read }
            SystemMonotonicClock.sleep(until: .now + .milliseconds(2))
        }
    }

    /// The reports carrying `samples` (−1…1) from report `first` on, 32 frames each.
    static func reports(_ samples: [Float], from first: UInt32) -> [[UInt8]] {
        let count = (samples.count + 31) / 32
        var padded = samples + [Float](repeating: 0, count: 32 * count - samples.count)
        var frames = [Int8](repeating: 0, count: 2 * padded.count)
        padded.withUnsafeMutableBufferPointer { wave in
            frames.withUnsafeMutableBufferPointer { VoiceCoilFrames.bluetoothFrames(wave.baseAddress!, count: wave.count, into: $0.baseAddress!) }
        }
        return (0..<count).map { index in
            frames[(64 * index)..<(64 * index + 64)].withUnsafeBufferPointer { DualSenseHapticsReport(frames: $0, number: first + UInt32(index)).bytes }
        }
    }

    /// Runs `run` up to 3 times, until it returns `true`: a run whose writer thread the machine held
    /// up for more than a report (its frames then dropped, as designed) is not judged.
    func judged(_ run: () throws -> Bool) throws {
        var done = false
        for _ in 0..<3 where !done { done = try run() }
        #expect(done, "every run was held up for more than a report")
    }

    @Test("Bluetooth: fed samples become reports from their instant, byte for byte, and stop with them")
    func bluetoothReports() throws {
        try judged(bluetoothReportsRun)
    }

    func bluetoothReportsRun() throws -> Bool {
        let (node, path, folder) = try makeNode()
        defer { folder.remove() }
        let stream = try BluetoothHapticsStream(node: node)
        defer { stream.close() }
        let samples = (0..<64).map { Float($0 - 32) / 32 }
        let start = MonotonicInstant.now + .milliseconds(30)
        #expect(samples.withUnsafeBufferPointer { stream.feed($0, at: start) })
        let written = try bytes(in: path, atLeast: 2 * 142)
        #expect(MonotonicInstant.now >= start)
        SystemMonotonicClock.sleep(until: .now + .milliseconds(40))
        if stream.liveSamplesDropped.lateFrames > 0 { return false }
        let all = try FileDescriptor.readContents(ofFile: path, maximumSize: 1 << 20)
        #expect(all.count == 2 * 142 && written.count == 2 * 142)
        #expect([Array(all[..<142]), Array(all[142...])] == Self.reports(samples, from: 0))

        // A stop discards a second's worth fed ahead: no report after it returns.
        let second = [Float](repeating: 0.25, count: 3_000)
        #expect(second.withUnsafeBufferPointer { stream.feed($0, at: .now) })
        _ = try bytes(in: path, atLeast: 4 * 142)
        stream.stop()
        let stopped = try FileDescriptor.readContents(ofFile: path, maximumSize: 1 << 20).count
        SystemMonotonicClock.sleep(until: .now + .milliseconds(50))
        #expect(try FileDescriptor.readContents(ofFile: path, maximumSize: 1 << 20).count == stopped)
        #expect(stopped < 100 * 142)
        return true
    }

    @Test("Bluetooth: a voice-coil sound drive writes the shaped sound's reports, in step with its blocks")
    func soundDriveOverBluetooth() throws {
        try judged(soundDriveOverBluetoothRun)
    }

    func soundDriveOverBluetoothRun() throws -> Bool {
        let (node, path, folder) = try makeNode()
        defer { folder.remove() }
        let haptics = try DualSenseHDHaptics(node: node, soundCard: nil)
        defer { haptics.close() }
        let drive = try VoiceCoilSoundDrive(haptics: haptics, sampleRate: 48_000, channelCount: 2)
        #expect(drive.latency > 0.001 && drive.latency < 0.005)
        // 0.1 s of a 150 Hz burst, stereo, in blocks of 256 frames.
        let sound = (0..<4_800).flatMap { index -> [Float] in
            let sample = Float(0.3 * sin(2 * Double.pi * 150 * Double(index) / 48_000))
            return [sample, sample]
        }
        var shaper = try VoiceCoilShaper(sampleRate: 48_000, channelCount: 2, outputRate: 3_000)
        var shaped = [Float](repeating: 0, count: shaper.maximumOutputFrames(inputFrames: 4_800))
        let count = sound.withUnsafeBufferPointer { input in shaped.withUnsafeMutableBufferPointer { shaper.process(input, into: $0) } }
        #expect(count == 300)
        let heard = MonotonicInstant.now + .milliseconds(40)
        for block in 0..<(4_800 / 256 + 1) {
            let from = block * 256 * 2
            let to = min(sound.count, from + 512)
            sound[from..<to].withUnsafeBufferPointer {
                #expect(drive.feed($0, presentationTime: heard + .nanoseconds(Int64(block) * 256 * 1_000_000_000 / 48_000)))
            }
        }
        // The report opening wrote selecting audio haptics (78 bytes), then 10 reports of drive.
        let written = try bytes(in: path, atLeast: 78 + 10 * 142)
        SystemMonotonicClock.sleep(until: .now + .milliseconds(40))
        if haptics.liveSamplesDropped.lateFrames > 0 { return false }
        let all = try FileDescriptor.readContents(ofFile: path, maximumSize: 1 << 20)
        #expect(written.count >= 78 + 10 * 142 && all.count == 78 + 10 * 142)
        let reports = stride(from: 78, to: all.count, by: 142).map { Array(all[$0..<min($0 + 142, all.count)]) }
        #expect(reports == Self.reports(Array(shaped[..<count]), from: 0))
        #expect(haptics.liveSamplesDropped == (0, 0))
        drive.stop()
        return true
    }

    @Test("USB: a voice-coil sound drive puts the shaped sound on the frames of its presentation time")
    func soundDriveOverUSB() throws {
        let (_, path, folder) = try makeNode()
        defer { folder.remove() }
        let (card, stream) = try openStream()
        let haptics = try DualSenseHDHaptics(node: TriggerNode(path: path, transport: .usb), usb: stream)
        let drive = try VoiceCoilSoundDrive(haptics: haptics, sampleRate: 48_000, channelCount: 1)
        #expect(abs(drive.latency - 0.000_98) < 0.000_01)
        // 20 ms of a 150 Hz tone heard from 10 ms after position 0 (frame 480), in blocks of 100 frames.
        let sound = (0..<960).map { Float(0.3 * sin(2 * Double.pi * 150 * Double($0) / 48_000)) }
        var shaper = try VoiceCoilShaper(sampleRate: 48_000, channelCount: 1, outputRate: 48_000)
        var shaped = [Float](repeating: 0, count: shaper.maximumOutputFrames(inputFrames: 960))
        let count = sound.withUnsafeBufferPointer { input in shaped.withUnsafeMutableBufferPointer { shaper.process(input, into: $0) } }
        #expect(count == 960)
        for block in 0..<10 {
            sound[(block * 96)..<(block * 96 + 96)].withUnsafeBufferPointer {
                #expect(drive.feed($0, presentationTime: origin + .milliseconds(10) + .microseconds(2_000 * Int64(block))))
            }
        }
        for _ in 0..<40 { stream.process() }
        let expected = [Float](repeating: 0, count: 480) + shaped[..<count] + [Float](repeating: 0, count: 480)
        #expect(card.channel(2) == expected && card.channel(3) == expected)

        // Again at half gain, then stopped halfway: the drive scaled, nothing after the stop.
        drive.stop()
        sound[..<480].withUnsafeBufferPointer { #expect(drive.feed($0, presentationTime: origin + .milliseconds(45), gain: 0.5)) }
        sound[480...].withUnsafeBufferPointer { #expect(drive.feed($0, presentationTime: origin + .milliseconds(55), gain: 0.5)) }
        for _ in 0..<10 { stream.process() }
        drive.stop()
        for _ in 0..<20 { stream.process() }
        let again = Array(card.channel(2)[1_920...])
        // 45 ms is frame 2,160: 240 frames of silence, then 240 of the drive at half, then silence.
        #expect(Array(again[240..<480]) == shaped[..<240].map { $0 * 0.5 })
        #expect(again[..<240].allSatisfy { $0 == 0 } && again[480...].allSatisfy { $0 == 0 })
        stream.close()
    }
}
