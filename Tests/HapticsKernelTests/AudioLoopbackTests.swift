import HapticsMeasurement
import CHapticsSystem
import Glibc
import HapticsAudio
import HapticsScheduler
import Testing
import HapticsSystem

/// The audio half of "sound and haptics land together", in a real kernel: clicks scheduled to be
/// audible at known monotonic instants are played by the engine's ALSA sink into snd-aloop
/// (`hw:Loopback,0,0`), captured on the other end of the cable (`hw:Loopback,1,0`) with monotonic
/// timestamps, and each click's onset is compared with its scheduled instant.
@Suite(.requiresKernelTestbench, .serialized)
struct AudioLoopbackTests {
    @Test func sixteenBitClicksBecomeAudibleAtTheirScheduledInstantsWithinOnePeriod() throws {
        try playClicksThroughTheLoopback(sampleFormat: .signed16)
    }

    @Test func floatClicksBecomeAudibleAtTheirScheduledInstantsWithinOnePeriod() throws {
        try playClicksThroughTheLoopback(sampleFormat: .float32)
    }

    // One test per format rather than a parameterized one: the testbench counts whole tests.
    func playClicksThroughTheLoopback(sampleFormat: AudioStreamFormat.SampleFormat) throws {
        try #require(access("/proc/asound/Loopback", F_OK) == 0, "snd-aloop is not loaded: no Loopback card")
        let format = AudioStreamFormat(sampleRate: 48_000, periodFrames: 256, periodCount: 4, sampleFormat: sampleFormat)
        // The capture the sync test and `haptics sync-test` use: it recovers from an overrun or a
        // stalled read and keeps the frames it lost out of the timeline (a gap), so a loaded host
        // costs frames, not the clock. About a second of buffer: a reader left waiting that long
        // loses frames.
        let capture = try ALSACaptureStream(device: "hw:Loopback,1,0", sampleRate: 48_000, periodFrames: format.periodFrames,
                                            bufferFrames: format.periodFrames * 192, sampleFormat: sampleFormat)
        let sink = ALSAAudioSink(device: "hw:Loopback,0,0", format: format)
        let output = AudioOutput(sink: sink)
        try output.start()
        defer { output.stop() }
        let period = output.streamFormat.duration(ofFrames: Int64(output.streamFormat.periodFrames)).nanoseconds

        // Let the stream settle (its buffer fills, the first readings arrive), then schedule.
        while capture.reads < 60 { try capture.readPeriod() }
        #expect(output.latency > .zero)
        let click = AudioVoice(stereoSamples: Array(repeating: 0.5, count: 2 * 96))   // 2 ms
        // 400 ms ahead: the voices must reach the output before it mixes their first period (its
        // latency, ~17 ms, ahead of the device), and the emulated processor has been seen to stall
        // for 75 ms; with 100 ms of margin one run placed a click late.
        let first = SystemMonotonicClock().now().advanced(by: 400_000_000)
        let spacing: Int64 = 130_000_000 + 1_700_000
        let scheduled = (0..<6).map { first.advanced(by: Int64($0) * spacing) }
        for instant in scheduled { #expect(output.schedule(click, audibleAt: instant)) }
        let end = scheduled.last!.advanced(by: 200_000_000)
        while CHapticsSystem_monotonicNow() < end.nanoseconds { try capture.readPeriod() }
        output.stop()
        let underruns = output.drainEvents().compactMap { event -> MonotonicInstant? in
            if case let .underrunRecovered(at) = event { return at }
            return nil
        }

        // Each click is looked for within half the spacing of its instant. One whose window the
        // capture did not cover whole (frames lost to an overrun) cannot be timed, nor one the
        // playback ran dry before (an underrun in the 200 ms before it: the guest's audio thread
        // was not run for a whole buffer, and the stream's timing is measured again from there):
        // it is reported, not judged.
        var errors: [Int64] = []
        var notJudged: [String] = []
        for instant in scheduled {
            let from = instant.advanced(by: -spacing / 2)
            let until = instant.advanced(by: spacing / 2)
            if let gap = capture.gaps.first(where: { $0.start < until && $0.start.advanced(by: $0.duration.nanoseconds) > from }) {
                notJudged.append("click at \(instant.nanoseconds) ns: capture gap of \(gap.duration) at \(gap.start.nanoseconds) ns")
                continue
            }
            if let underrun = underruns.first(where: { $0 <= instant && $0 > instant.advanced(by: -200_000_000) }) {
                notJudged.append("click at \(instant.nanoseconds) ns: playback underrun at \(underrun.nanoseconds) ns")
                continue
            }
            let onset = try #require(capture.onset(from: from, until: until, threshold: 0.25),
                                     "no click heard within \(spacing / 2_000_000) ms of \(instant.nanoseconds) ns")
            let heard = try #require(capture.instant(ofFrame: onset))
            errors.append(heard.nanoseconds - instant.nanoseconds)
        }
        let statistics = output.statistics
        print("audio-loopback (\(sampleFormat)): period \(Double(period) / 1e6) ms, latency \(Double(output.latency.nanoseconds) / 1e6) ms, "
            + "onset errors (ms) \(errors.map { (Double($0) / 1e4).rounded() / 100 }), "
            + "max |error| \(Double(errors.map { abs($0) }.max() ?? 0) / 1e6) ms, underruns \(statistics.underruns), timing jumps \(statistics.timingJumps), "
            + "late \(statistics.late) (max \(Double(statistics.maximumLateness.nanoseconds) / 1e6) ms), "
            + "capture overruns \(capture.overruns), timeouts \(capture.timeouts), gaps \(capture.gaps.count), "
            + "SCHED_FIFO \(statistics.realtimeThread?.priorityRefusal.map { "refused: \($0)" } ?? "granted")")
        if !notJudged.isEmpty { print("audio-loopback: not judged: \(notJudged)") }
        #expect(notJudged.count <= 2, "too disturbed a capture to judge: \(notJudged)")
        // A late voice is one the machine put off: it is among those not judged.
        #expect(statistics.late <= notJudged.count)
        for error in errors { #expect(abs(error) <= period, "onset error \(error) ns exceeds one period (\(period) ns)") }
    }
}
