import CBenchSupport
import Glibc
import Haptics

/// `Tools/bench sound-feed`: the latency live haptics from sound add, and what a block costs: on
/// rumble motors here, on voice coils in `voiceCoilDriveFigures()`.
///
/// Latency is algorithmic (the same on any machine): a tone starts after silence, and the figure is
/// the span from its first sample to the first level frame at 90 % of the level the tone settles
/// at (the level 500 ms in), on the motor its band drives. The feed sends each level its device's
/// lead time early, so this span is what a player feels late. It is measured at three block sizes
/// (the levels carry the instants of their sound, so the block size must not matter), with the
/// default options side by side with a slower setting (5 ms attack, 10 ms control interval).
/// Cost: 2,000 blocks of 256 stereo frames at 48 kHz fed through a manually driven engine on one
/// counting output: heap allocations while feeding (after one warm-up block) and time per block.
func runSoundFeedBenchmark() {
    let rate = 48_000
    var slower = SoundEnvelopeFollower.Options()
    slower.attack = 0.005
    slower.controlInterval = 0.01
    let settings: [(name: String, key: String, options: SoundEnvelopeFollower.Options)] = [
        ("default (1 ms attack, 2 ms interval)", "default", .init()), ("slower (5 ms attack, 10 ms interval)", "slower", slower),
    ]
    let tones: [(name: String, key: String, frequency: Double, decibels: Double, strong: Bool)] = [
        ("60 Hz at -6 dBFS", "low_6", 60, -6, true), ("60 Hz at -30 dBFS", "low_30", 60, -30, true),
        ("2 kHz at -6 dBFS", "high_6", 2_000, -6, false),
    ]
    let blockSizes = [64, 256, 1_024]
    var pairs: [(String, String)] = []
    print("sound-feed: step response at \(rate) Hz, mono; latency = tone onset → first level at 90 % of its settled level")
    for setting in settings {
        for tone in tones {
            var figures: [String] = []
            for blockSize in blockSizes {
                let latency = stepLatency(rate: rate, tone: tone, blockSize: blockSize, options: setting.options)
                figures.append("\(blockSize): \(decimal(latency / 1e6, 3)) ms")
                pairs.append(("\(setting.key)_\(tone.key)_block_\(blockSize)_ms", decimal(latency / 1e6, 3)))
            }
            print("  \(setting.name), \(tone.name), by block size: \(figures.joined(separator: ", "))")
        }
    }
    let cost = feedCost(rate: rate)
    print("engine feed: \(cost.blocks) blocks of 256 stereo frames, \(cost.allocations) heap allocations while feeding, "
          + "\(decimal(cost.nanosecondsPerBlock / 1000, 2)) µs per block (\(decimal(cost.nanosecondsPerBlock / 256, 1)) ns per frame), "
          + "\(cost.performed) device writes")
    pairs += [("feed_blocks", "\(cost.blocks)"), ("feed_mallocs", "\(cost.allocations)"),
              ("feed_ns_per_block", decimal(cost.nanosecondsPerBlock, 1)), ("feed_writes", "\(cost.performed)")]
    pairs += voiceCoilDriveFigures()
    print(jsonObject(pairs))
}

/// Nanoseconds from the tone's onset (100 ms in) to the first frame at 90 % of its settled level.
private func stepLatency(
    rate: Int, tone: (name: String, key: String, frequency: Double, decibels: Double, strong: Bool), blockSize: Int,
    options: SoundEnvelopeFollower.Options
) -> Double {
    let onset = rate / 10
    let amplitude = Float(pow(10, tone.decibels / 20))
    let samples: [Float] = (0..<(rate * 6 / 10)).map { index in
        index < onset ? 0 : amplitude * Float(sin(2 * Double.pi * tone.frequency * Double(index - onset) / Double(rate)))
    }
    guard var follower = try? SoundEnvelopeFollower(sampleRate: rate, channelCount: 1, options: options) else {
        benchFailure("sound-feed: the follower refused its options")
    }
    var frames: [MotorLevelFrame] = []
    frames.reserveCapacity(1_000)
    samples.withUnsafeBufferPointer { all in
        var start = 0
        while start < all.count {
            let count = min(blockSize, all.count - start)
            let block = UnsafeBufferPointer(rebasing: all[start..<(start + count)])
            follower.process(block, presentationTime: MonotonicInstant(nanoseconds: Int64(start) * 1_000_000_000 / Int64(rate))) {
                frames.append($0)
            }
            start += count
        }
    }
    let level = { (frame: MotorLevelFrame) in tone.strong ? frame.strong : frame.weak }
    let settled = level(frames.last!)
    let onsetTime = Int64(onset) * 1_000_000_000 / Int64(rate)
    guard let reached = frames.first(where: { $0.time.nanoseconds >= onsetTime && level($0) >= 0.9 * settled }) else {
        benchFailure("sound-feed: \(tone.name) never reached 90 % of its level")
    }
    return Double(reached.time.nanoseconds - onsetTime)
}

/// Feeds 2,000 blocks of a 60 Hz + 2 kHz stereo mix through an engine on one counting output.
private func feedCost(rate: Int) -> (blocks: Int, allocations: Int64, nanosecondsPerBlock: Double, performed: Int) {
    let clock = SteppedClock()
    let output = CountingOutput()
    let engine = HapticEngine(clock: clock, outputs: [HapticEngine.Output(device: output, profile: benchRumble)])
    engine.startManuallyDriven()
    guard let feed = try? engine.makeLiveSoundFeed(sampleRate: rate, channelCount: 2) else {
        benchFailure("sound-feed: no feed")
    }
    let frames = 256
    let samples: [Float] = (0..<(frames * 2)).map { index in
        let t = Double(index / 2) / Double(rate)
        return Float(0.4 * sin(2 * Double.pi * 60 * t) + 0.2 * sin(2 * Double.pi * 2_000 * t))
    }
    let span = Int64(frames) * 1_000_000_000 / Int64(rate)
    let blocks = 2_000
    var heard = clock.now().advanced(by: 20_000_000)
    var allocations: Int64 = 0
    var elapsed: Int64 = 0
    samples.withUnsafeBufferPointer { block in
        for index in 0...blocks {
            // One warm-up block first: the engine's lazily made state is not the feed's cost.
            if index == 1 { CBenchSupport_beginCountingAllocations() }
            let started = SystemMonotonicClock().now()
            _ = feed.feed(block, presentationTime: heard)
            if index > 0 { elapsed += (SystemMonotonicClock().now() - started).nanoseconds }
            heard = heard.advanced(by: span)
            clock.advance(by: .nanoseconds(span))
            _ = engine.process()
        }
        allocations = CBenchSupport_endCountingAllocations()
    }
    feed.stop()
    return (blocks, allocations, Double(elapsed) / Double(blocks), output.count.load(ordering: .relaxed))
}
