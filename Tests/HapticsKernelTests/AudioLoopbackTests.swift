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
        let capture = try AudioLoopbackCapture(periodFrames: format.periodFrames, capacityFrames: 48_000 * 4,
                                               float: sampleFormat == .float32)
        let sink = ALSAAudioSink(device: "hw:Loopback,0,0", format: format)
        let output = AudioOutput(sink: sink)
        try output.start()
        defer { output.stop() }
        let period = output.streamFormat.duration(ofFrames: Int64(output.streamFormat.periodFrames)).nanoseconds

        // Let the stream settle (its buffer fills, the first readings arrive), then schedule.
        while capture.origins.count < 60 { try capture.readPeriod() }
        #expect(output.latency > .zero)
        let click = AudioVoice(stereoSamples: Array(repeating: 0.5, count: 2 * 96))   // 2 ms
        // 400 ms ahead: the voices must reach the output before it mixes their first period (its
        // latency, ~17 ms, ahead of the device), and the emulated processor has been seen to stall
        // for 75 ms; with 100 ms of margin one run placed a click late.
        let first = SystemMonotonicClock().now().advanced(by: 400_000_000)
        let scheduled = (0..<6).map { first.advanced(by: Int64($0) * 130_000_000 + Int64($0) * 1_700_000) }
        for instant in scheduled { #expect(output.schedule(click, audibleAt: instant)) }
        let end = scheduled.last!.advanced(by: 200_000_000)
        while CHapticsSystem_monotonicNow() < end.nanoseconds { try capture.readPeriod() }
        output.stop()

        let onsets = capture.onsets(threshold: 0.25, quiet: 480)
        try #require(onsets.count == scheduled.count, "found \(onsets.count) click onsets, expected \(scheduled.count)")
        let origin = capture.origin
        var errors: [Int64] = []
        for (onset, instant) in zip(onsets, scheduled) {
            let heard = origin + Int64(onset) * 1_000_000_000 / 48_000
            errors.append(heard - instant.nanoseconds)
        }
        let statistics = output.statistics
        print("audio-loopback (\(sampleFormat)): period \(Double(period) / 1e6) ms, latency \(Double(output.latency.nanoseconds) / 1e6) ms, "
            + "onset errors (ms) \(errors.map { (Double($0) / 1e4).rounded() / 100 }), "
            + "max |error| \(Double(errors.map { abs($0) }.max()!) / 1e6) ms, underruns \(statistics.underruns), timing jumps \(statistics.timingJumps), "
            + "late \(statistics.late) (max \(Double(statistics.maximumLateness.nanoseconds) / 1e6) ms), SCHED_FIFO \(statistics.realtimeThread?.priorityRefusal.map { "refused: \($0)" } ?? "granted")")
        #expect(statistics.late == 0)
        for error in errors { #expect(abs(error) <= period, "onset error \(error) ns exceeds one period (\(period) ns)") }
    }
}
