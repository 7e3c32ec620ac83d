import Glibc
import HapticsAudio
import HapticsMeasurement
import HapticsSystem
import HapticsTriggers
import HapticsVirtualDevices
import HapticsVoiceCoils
import Testing

/// Live drive samples in a real kernel: snd-aloop's 4-channel cable stands in for the pad's sound
/// card, as in ``HDHapticsKernelTests``; the samples fed to the stream are captured at the far end
/// with monotonic timestamps. Over Bluetooth, the virtual DualSense on uhid receives the reports.
@Suite(.requiresKernelTestbench, .serialized)
struct HDHapticsLiveKernelTests {
    @Test func overUSBFedSamplesSoundOnChannelsTwoAndThreeAtTheirPresentationTime() throws {
        try #require(access("/proc/asound/Loopback", F_OK) == 0, "snd-aloop is not loaded: no Loopback card")
        // A run the emulated processor disturbed (the card ran dry, the capture lost frames) is
        // reported and made again.
        var judged = false
        for _ in 0..<3 where !judged { judged = try feedThroughTheLoopback() }
        #expect(judged, "every run was disturbed by the guest's stalls")
    }

    /// One run; `false` when the guest disturbed it, so nothing could be judged.
    func feedThroughTheLoopback() throws -> Bool {
        // A buffer of 32 periods keeps the stream ahead of snd-aloop's tick and the guest's stalls.
        let haptics = USBHapticsStream(card: try VoiceCoilSoundCard(override: "hw:Loopback,0,2"), periodCount: 32)
        try haptics.start()
        defer { haptics.close() }
        let capture = try ALSACaptureStream(device: "hw:Loopback,1,2", sampleRate: 48_000, periodFrames: 48,
                                            bufferFrames: 48 * 1_000, channelCount: 4)
        defer { capture.close() }
        while capture.reads < 200 { try capture.readPeriod() }

        // A 150 Hz burst of 100 ms at half scale, fed in blocks of 10 ms, each with its instant.
        let burst = (0..<4_800).map { Float(0.5 * sin(2 * Double.pi * 150 * Double($0) / 48_000)) }
        let start = MonotonicInstant.now + .milliseconds(300)
        let underrunsBefore = haptics.underruns
        for block in 0..<10 {
            burst[(block * 480)..<(block * 480 + 480)].withUnsafeBufferPointer {
                #expect(haptics.feed($0, at: start + .milliseconds(10 * Int64(block))))
            }
        }
        while MonotonicInstant.now < start + .milliseconds(150) { try capture.readPeriod() }
        // Half a second more, fed 200 ms ahead and stopped at once: none of it plays.
        let more = [Float](repeating: 0.25, count: 24_000)
        more.withUnsafeBufferPointer { #expect(haptics.feed($0, at: .now + .milliseconds(200))) }
        haptics.stop()
        let stopped = MonotonicInstant.now
        while MonotonicInstant.now < stopped + .milliseconds(800) { try capture.readPeriod() }
        let underruns = haptics.underruns - underrunsBefore
        haptics.close()
        guard underruns == 0 && capture.gaps.isEmpty else {
            print("hd-usb-live: disturbed, not judged: underruns \(underruns), capture gaps \(capture.gaps)")
            return false
        }

        let left = capture.channel(2), right = capture.channel(3)
        #expect(left == right)
        #expect(capture.channel(0).allSatisfy { $0 == 0 } && capture.channel(1).allSatisfy { $0 == 0 }, "channels 0 and 1 are not silent")
        // The burst as 16-bit samples, found where its first non-zero frame is.
        let expected = burst.map { Float(Int16(($0 * 32_767).rounded())) / 32_768 }
        let expectedFirst = try #require(expected.firstIndex { $0 != 0 })
        let heardFirst = try #require(left.firstIndex { $0 != 0 }, "nothing played on channel 2")
        let burstFrame = heardFirst - expectedFirst
        try #require(burstFrame >= 0 && burstFrame + expected.count <= left.count)
        let heard = Array(left[burstFrame..<(burstFrame + expected.count)])
        let difference = zip(heard, expected).map { abs($0 - $1) }.max() ?? 0
        #expect(difference <= 1.0 / 32_768, "the captured burst differs from what was fed by \(difference)")
        #expect(left[(burstFrame + expected.count)...].allSatisfy { $0 == 0 }, "samples fed before stop() played after it")
        #expect(haptics.liveSamplesDropped == (0, 0))

        // Its first frame sounds at its presentation time, within one period of the stream.
        let instant = try #require(capture.instant(ofFrame: burstFrame))
        let error = instant.nanoseconds - start.nanoseconds
        let period = Int64(haptics.format.periodFrames) * 1_000_000_000 / 48_000
        print("hd-usb-live: onset error \(Double(error) / 1e6) ms (period \(Double(period) / 1e6) ms)")
        #expect(abs(error) <= period, "the burst's first frame sounded \(error) ns from its presentation time")
        return true
    }

    @Test func overBluetoothFedSamplesArriveInReportsFromTheirPresentationTime() throws {
        let controller = try VirtualDualSense(connection: .bluetooth)
        defer { controller.close() }
        let node = try #require(try controller.waitForGamepadNode())
        _ = try #require(try controller.waitForHidrawNode())
        let haptics = try BluetoothHapticsStream(eventNode: node)
        defer { haptics.close() }
        func hapticsReports(_ reports: [DualSenseOutputReport]) -> [DualSenseOutputReport] { reports.filter(\.isHapticsReport) }

        // A 150 Hz burst of 10 reports at 3 kHz, fed a report at a time with each one's instant.
        let burst = (0..<320).map { Float(0.5 * sin(2 * Double.pi * 150 * Double($0) / 3_000)) }
        let start = MonotonicInstant.now + .milliseconds(100)
        for block in 0..<10 {
            burst[(block * 32)..<(block * 32 + 32)].withUnsafeBufferPointer {
                #expect(haptics.feed($0, at: start + .nanoseconds(Int64(block) * DualSenseHapticsReport.periodNanoseconds)))
            }
        }
        let reports = hapticsReports(controller.waitForOutputReports { hapticsReports($0).count >= 10 })
        try #require(reports.count == 10)
        SystemMonotonicClock.sleep(until: .now + .milliseconds(100))
        #expect(hapticsReports(controller.outputReports).count == 10, "reports after the samples' end")

        var expected = [Int8](repeating: 0, count: 640)
        burst.withUnsafeBufferPointer { wave in
            expected.withUnsafeMutableBufferPointer { VoiceCoilFrames.bluetoothFrames(wave.baseAddress!, count: 320, into: $0.baseAddress!) }
        }
        #expect(reports.flatMap(\.hapticsFrames) == expected)
        #expect(reports.allSatisfy { $0.hasValidCRC == true })
        // Report n is written as its first frame is due; the 3 kHz grid may put it up to a sixth of a
        // millisecond before the instant asked for.
        let lateness = reports.enumerated().map {
            $1.receivedAt.nanoseconds - (start.nanoseconds + Int64($0) * DualSenseHapticsReport.periodNanoseconds)
        }
        print("hd-bluetooth-live: lateness (ms) \(lateness.map { (Double($0) / 1e4).rounded() / 100 })")
        #expect(lateness.allSatisfy { $0 >= -166_667 }, "a report arrived before its instant")
        #expect(lateness.sorted()[5] < DualSenseHapticsReport.periodNanoseconds, "reports arrive a period late")
    }
}
