import CHapticsSystem
import Glibc
import HapticsAudio
import HapticsMeasurement
import HapticsPatterns
import HapticsSystem
import HapticsTriggers
import HapticsVirtualDevices
import HapticsVoiceCoils
import Testing

/// HD haptics in a real kernel. Over USB, snd-aloop's 4-channel cable stands in for the pad's sound
/// card: the stream plays into `hw:Loopback,0,2` and the far end (`hw:Loopback,1,2`) is captured
/// with monotonic timestamps. Over Bluetooth, the virtual DualSense on uhid receives the reports
/// the stream writes to its hidraw node.
@Suite(.requiresKernelTestbench, .serialized)
struct HDHapticsKernelTests {
    /// A soft transient (sharpness 0, 80 Hz) and 150 ms later a crisp one (sharpness 1, 300 Hz).
    static let pattern = Pattern(events: [
        PatternEvent(kind: .hapticTransient, time: 0, parameters: EventParameters(hapticIntensity: 1, hapticSharpness: 0)),
        PatternEvent(kind: .hapticTransient, time: 0.15, parameters: EventParameters(hapticIntensity: 1, hapticSharpness: 1)),
    ])

    /// `pattern` rendered in one go at `sampleRate`.
    static func rendered(_ pattern: Pattern, sampleRate: Int) -> [Float] {
        var renderer = WaveformRenderer(pattern, sampleRate: sampleRate)
        var samples = [Float](repeating: 0, count: Int(renderer.frameCount))
        samples.withUnsafeMutableBufferPointer { renderer.render(from: 0, into: $0) }
        return samples
    }

    /// The sign changes in `samples` (zeros skip), as the indices where the new sign starts.
    static func zeroCrossings(_ samples: ArraySlice<Float>) -> [Int] {
        var crossings: [Int] = []
        var sign: Float = 0
        for index in samples.indices where samples[index] != 0 {
            let current: Float = samples[index] > 0 ? 1 : -1
            if sign != 0 && current != sign { crossings.append(index) }
            sign = current
        }
        return crossings
    }

    /// The frequency of the burst in `samples`, from the mean spacing of its zero crossings.
    static func frequency(_ samples: ArraySlice<Float>, sampleRate: Int) -> Double? {
        let crossings = zeroCrossings(samples)
        guard crossings.count >= 2 else { return nil }
        let halfPeriod = Double(crossings.last! - crossings.first!) / Double(crossings.count - 1)
        return Double(sampleRate) / (2 * halfPeriod)
    }

    @Test func overUSBTransientsStartOnTheirFrameAtTheirSharpnessOnChannelsTwoAndThreeOnly() throws {
        try #require(access("/proc/asound/Loopback", F_OK) == 0, "snd-aloop is not loaded: no Loopback card")
        // The emulated processor has been seen to stall for seconds on a loaded host: a run it
        // disturbed (the card ran dry, or the capture lost frames) is reported and made again.
        var judged = false
        for _ in 0..<3 where !judged { judged = try playThroughTheLoopback() }
        #expect(judged, "every run was disturbed by the guest's stalls")
    }

    /// One run of the USB test; `false` when the guest disturbed it, so nothing could be judged.
    func playThroughTheLoopback() throws -> Bool {
        // snd-aloop moves frames on the kernel's tick (4 ms at 250 Hz): a buffer of 32 periods
        // keeps the stream ahead of it and of the emulated processor's stalls.
        let haptics = USBHapticsStream(card: try VoiceCoilSoundCard(override: "hw:Loopback,0,2"), periodCount: 32)
        try haptics.start()
        defer { haptics.close() }
        #expect(haptics.format.channelCount == 4)
        let capture = try ALSACaptureStream(device: "hw:Loopback,1,2", sampleRate: 48_000, periodFrames: 48,
                                            bufferFrames: 48 * 1_000, channelCount: 4)
        defer { capture.close() }
        while capture.reads < 200 { try capture.readPeriod() }

        let start = MonotonicInstant.now + .milliseconds(300)
        let underrunsBefore = haptics.underruns, jumpsBefore = haptics.timingJumps
        haptics.play(Self.pattern, at: start)
        while MonotonicInstant.now < start { try capture.readPeriod() }
        let underrunsScheduling = haptics.underruns - underrunsBefore
        while MonotonicInstant.now < start + .milliseconds(500) { try capture.readPeriod() }
        let underrunsPattern = haptics.underruns - underrunsBefore
        let jumpsPattern = haptics.timingJumps - jumpsBefore
        // A 100 ms tone played now on the running stream, its buffer full: it takes the frames the
        // card has not played back and sounds within 2 ms, besides laying the pattern out, which
        // play() does on the calling thread (its first periods rendered: timed here by doing the
        // same, tens of microseconds in a release build, milliseconds in this debug build on the
        // emulated processor, and by the call itself, which the guest may also hold up). Stopped
        // 20 ms later: nothing of it more than 2 ms after the stop.
        let tone = Pattern(events: [PatternEvent(kind: .hapticContinuous, time: 0, duration: 0.1,
                                                 parameters: EventParameters(hapticIntensity: 1))])
        let layoutStart = MonotonicInstant.now
        var layout = WaveformRenderer(tone, sampleRate: 48_000)
        var head = [Float](repeating: 0, count: USBHapticsStream.rewritePeriodsAhead * 48)
        head.withUnsafeMutableBufferPointer { layout.render(from: 0, into: $0) }
        let layoutTime = MonotonicInstant.now.nanoseconds - layoutStart.nanoseconds
        let playedNow = MonotonicInstant.now
        haptics.play(tone, at: playedNow)
        let playTime = MonotonicInstant.now.nanoseconds - playedNow.nanoseconds
        while MonotonicInstant.now < playedNow + .milliseconds(20) { try capture.readPeriod() }
        let underrunsPlayedNow = haptics.underruns - underrunsBefore
        haptics.stop()
        let stopped = MonotonicInstant.now
        while MonotonicInstant.now < stopped + .milliseconds(300) { try capture.readPeriod() }
        let underruns = haptics.underruns - underrunsBefore
        haptics.close()
        let counts = "card ran dry: by the scheduled pattern's instant \(underrunsScheduling), by its end \(underrunsPattern), "
            + "20 ms after the play now \(underrunsPlayedNow), after the stop \(underruns)"
        // A card that ran dry while the pattern played, or whose position jumped on (the guest did
        // not run the stream's thread for a whole buffer), cut or moved it; frames after a gap in
        // the capture are timed by a later origin.
        guard underrunsPattern == 0 && jumpsPattern == 0 && capture.gaps.isEmpty else {
            print("hd-usb: disturbed, not judged: \(counts), timing jumps \(jumpsPattern), capture gaps \(capture.gaps)")
            return false
        }
        print("hd-usb: \(counts)")

        let left = capture.channel(2), right = capture.channel(3)
        #expect(left == right)
        #expect(capture.channel(0).allSatisfy { $0 == 0 } && capture.channel(1).allSatisfy { $0 == 0 }, "channels 0 and 1 are not silent")

        // The pattern's frames, as 16-bit, found where its first non-zero frame is.
        let expected = Self.rendered(Self.pattern, sampleRate: 48_000).map { (Float(Int16(($0 * 32_767).rounded())) / 32_768) }
        let expectedFirst = try #require(expected.firstIndex { $0 != 0 })
        let heardFirst = try #require(left.firstIndex { $0 != 0 }, "nothing played on channel 2")
        let patternFrame = heardFirst - expectedFirst
        let heard = Array(left[patternFrame..<(patternFrame + expected.count)])
        let maximumDifference = zip(heard, expected).map { abs($0 - $1) }.max() ?? 0
        #expect(maximumDifference <= 1.0 / 32_768, "the captured pattern differs from its rendering by \(maximumDifference)")

        // Its first frame sounds at its instant, within one period of the stream.
        let instant = try #require(capture.instant(ofFrame: patternFrame))
        let error = instant.nanoseconds - start.nanoseconds
        let period = Int64(haptics.format.periodFrames) * 1_000_000_000 / 48_000
        print("hd-usb: onset error \(Double(error) / 1e6) ms (period \(Double(period) / 1e6) ms), "
            + "capture overruns \(capture.overruns), timeouts \(capture.timeouts)")
        #expect(abs(error) <= period, "the pattern's first frame sounded \(error) ns from its instant")

        // Frequency follows sharpness: 80 Hz for the first transient, 300 Hz for the second.
        let secondOffset = Int((0.15 * 48_000).rounded())
        let soft = try #require(Self.frequency(heard[0..<secondOffset], sampleRate: 48_000))
        let crisp = try #require(Self.frequency(heard[secondOffset...], sampleRate: 48_000))
        #expect(abs(soft - VoiceCoilTone.frequency(sharpness: 0)) < 2, "soft transient at \(soft) Hz")
        #expect(abs(crisp - VoiceCoilTone.frequency(sharpness: 1)) < 6, "crisp transient at \(crisp) Hz")
        print("hd-usb: transients at \(soft) Hz (sharpness 0) and \(crisp) Hz (sharpness 1)")

        // The pattern played now sounds within 2 ms of the call, in place of what the card held.
        let playedFrame = try #require(left[(patternFrame + expected.count)...].firstIndex { $0 != 0 }, "the pattern played now never sounded")
        let playedInstant = try #require(capture.instant(ofFrame: playedFrame))
        let playLatency = playedInstant.nanoseconds - playedNow.nanoseconds
        let layingOut = max(layoutTime, playTime)
        #expect(playLatency <= 2_000_000 + layingOut,
                "a play now sounded \(Double(playLatency) / 1e6) ms after the call (laying it out takes \(Double(layoutTime) / 1e6) ms, the call \(Double(playTime) / 1e6) ms)")

        // After the stop, only the margin past the card's position still plays.
        let lastSound = try #require(left.lastIndex { $0 != 0 })
        let lastInstant = try #require(capture.instant(ofFrame: lastSound))
        let afterStop = lastInstant.nanoseconds - stopped.nanoseconds
        #expect(afterStop <= 2_000_000 + period, "sound \(Double(afterStop) / 1e6) ms after the stop")
        print("hd-usb: play now → sound \(Double(playLatency) / 1e6) ms (laying it out \(Double(layoutTime) / 1e6) ms), last sound \(Double(afterStop) / 1e6) ms after the stop, "
            + "buffer \(Double(Int64(haptics.format.bufferFrames) * 1_000_000_000 / 48_000) / 1e6) ms, \(haptics.rewoundFrames) frames rewound")
        return true
    }

    @Test func overUSBAnIdleStreamClosesTheCardAndAPlayOpensItAgain() throws {
        try #require(access("/proc/asound/Loopback", F_OK) == 0, "snd-aloop is not loaded: no Loopback card")
        let haptics = USBHapticsStream(card: try VoiceCoilSoundCard(override: "hw:Loopback,0,2"), periodCount: 32)
        try haptics.start()
        defer { haptics.close() }
        let deadline = MonotonicInstant.now + .seconds(10)
        while !haptics.isSuspended && .now < deadline { SystemMonotonicClock.sleep(until: .now + .milliseconds(20)) }
        try #require(haptics.isSuspended, "the stream did not suspend")
        // Asleep: nothing written for 200 ms.
        let periods = haptics.periods
        SystemMonotonicClock.sleep(until: .now + .milliseconds(200))
        #expect(haptics.periods == periods)

        let capture = try ALSACaptureStream(device: "hw:Loopback,1,2", sampleRate: 48_000, periodFrames: 48,
                                            bufferFrames: 48 * 1_000, channelCount: 4)
        defer { capture.close() }
        let start = MonotonicInstant.now + .milliseconds(100)
        haptics.play(Self.pattern, at: start)
        while MonotonicInstant.now < start + .milliseconds(400) { try capture.readPeriod() }
        #expect(!haptics.isSuspended)
        let left = capture.channel(2)
        let expected = Self.rendered(Self.pattern, sampleRate: 48_000).map { (Float(Int16(($0 * 32_767).rounded())) / 32_768) }
        let expectedFirst = try #require(expected.firstIndex { $0 != 0 })
        let heardFirst = try #require(left.firstIndex { $0 != 0 }, "nothing played after the card was opened again")
        let patternFrame = heardFirst - expectedFirst
        try #require(patternFrame >= 0 && patternFrame + expected.count <= left.count)
        let heard = Array(left[patternFrame..<(patternFrame + expected.count)])
        #expect(zip(heard, expected).allSatisfy { abs($0 - $1) <= 1.0 / 32_768 }, "the pattern differs from its rendering")
        if let instant = capture.instant(ofFrame: patternFrame) {
            let error = Double(instant.nanoseconds - start.nanoseconds) / 1e6
            print("hd-usb-resume: the pattern sounded \(error) ms from its instant after the card was opened again")
            #expect(abs(error) < 20, "\(error) ms from its instant")
        }
    }

    @Test func overBluetoothReportsComeEveryThirtyTwoFramesWithTheirCRCAndSamples() throws {
        let controller = try VirtualDualSense(connection: .bluetooth)
        defer { controller.close() }
        let node = try #require(try controller.waitForGamepadNode())
        let hidraw = try #require(try controller.waitForHidrawNode())
        let haptics = try BluetoothHapticsStream(eventNode: node)
        defer { haptics.close() }
        #expect(haptics.node == TriggerNode(path: hidraw, transport: .bluetooth))
        func hapticsReports(_ reports: [DualSenseOutputReport]) -> [DualSenseOutputReport] { reports.filter(\.isHapticsReport) }

        // 0.15 s + 10 ms at 3 kHz: 480 frames, 15 reports.
        let samples = Self.rendered(Self.pattern, sampleRate: 3_000)
        let count = (samples.count + 31) / 32
        let start = MonotonicInstant.now + .milliseconds(100)
        try haptics.play(Self.pattern, at: start)
        let reports = hapticsReports(controller.waitForOutputReports { hapticsReports($0).count >= count })
        try #require(reports.count == count)
        SystemMonotonicClock.sleep(until: .now + .milliseconds(200))
        #expect(hapticsReports(controller.outputReports).count == count, "reports after the pattern's end")

        var expected = [Int8](repeating: 0, count: 64 * count)
        let padded = samples + [Float](repeating: 0, count: 32 * count - samples.count)
        padded.withUnsafeBufferPointer { wave in
            expected.withUnsafeMutableBufferPointer { VoiceCoilFrames.bluetoothFrames(wave.baseAddress!, count: 32 * count, into: $0.baseAddress!) }
        }
        #expect(reports.flatMap(\.hapticsFrames) == expected)
        #expect(reports.allSatisfy { $0.hasValidCRC == true })
        #expect(reports.map(\.bytes.count) == Array(repeating: DualSenseHapticsReport.size, count: count))
        let counters = reports.compactMap(\.hapticsCounter)
        #expect(zip(counters, counters.dropFirst()).allSatisfy { $1 == $0 &+ 1 }, "counters \(counters)")

        // Report n is written at start + n × 32 / 3000 s: none early, the cadence ≈ 10.7 ms.
        let lateness = reports.enumerated().map { $1.receivedAt.nanoseconds - (start.nanoseconds + Int64($0) * DualSenseHapticsReport.periodNanoseconds) }
        // The median spacing: a report the guest held up makes one spacing long and the next short.
        let spacings = zip(reports, reports.dropFirst()).map { $1.receivedAt.nanoseconds - $0.receivedAt.nanoseconds }.sorted()
        let cadence = Double(spacings[spacings.count / 2])
        print("hd-bluetooth: \(count) reports, cadence \(cadence / 1e6) ms, lateness (ms) \(lateness.map { (Double($0) / 1e4).rounded() / 100 })")
        #expect(lateness.allSatisfy { $0 >= 0 }, "a report arrived before its instant")
        #expect(lateness.sorted()[count / 2] < DualSenseHapticsReport.periodNanoseconds, "reports arrive a period late")
        #expect(abs(cadence - Double(DualSenseHapticsReport.periodNanoseconds)) < 1_000_000, "one report per \(cadence / 1e6) ms")

        // A long pattern stopped: no report once stop() returned.
        try haptics.play(Pattern(events: [PatternEvent(kind: .hapticContinuous, time: 0, duration: 5)]), at: .now)
        controller.waitForOutputReports { hapticsReports($0).count >= count + 5 }
        haptics.stop()
        let written = Int(haptics.reportsWritten)
        let settled = controller.waitForOutputReports(timeout: .seconds(2)) { hapticsReports($0).count >= written }
        #expect(hapticsReports(settled).count == written)
        SystemMonotonicClock.sleep(until: .now + .milliseconds(200))
        #expect(hapticsReports(controller.outputReports).count == written, "reports after stop() returned")
        #expect(written < count + 5 + 10)
    }

    @Test func overBluetoothThePlayerClearsRumbleEmulationAtTheInstantThenPlays() throws {
        let controller = try VirtualDualSense(connection: .bluetooth)
        defer { controller.close() }
        let node = try #require(try controller.waitForGamepadNode())
        _ = try #require(try controller.waitForHidrawNode())
        let haptics = try DualSenseHDHaptics(eventNode: node)
        defer { haptics.close() }
        #expect(haptics.transport == .bluetooth)
        // Opening clears every valid flag, with a report the pad takes (its CRC valid).
        let clear = DualSenseTriggerReport(transport: .bluetooth, left: nil, right: nil).bytes
        let opened = controller.waitForOutputReports { $0.contains { $0.bytes == clear } }
        #expect(opened.last { $0.bytes == clear }?.hasValidCRC == true)

        let before = opened.count
        let count = (Self.rendered(Self.pattern, sampleRate: 3_000).count + 31) / 32
        let start = MonotonicInstant.now + .milliseconds(100)
        try haptics.play(Self.pattern, at: start)
        let received = controller.waitForOutputReports { $0.dropFirst(before).filter(\.isHapticsReport).count >= count }
        let ours = received.dropFirst(before).filter { $0.bytes == clear || $0.isHapticsReport }
        #expect(ours.map { $0.bytes == clear } == [true] + Array(repeating: false, count: count))
        #expect(ours.first.map { $0.receivedAt >= start } == true, "the clearing report came before the pattern's instant")
    }
}
