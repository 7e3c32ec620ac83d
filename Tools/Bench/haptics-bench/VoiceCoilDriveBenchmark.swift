import CBenchSupport
import Glibc
import Haptics

/// The voice-coil half of `Tools/bench sound-feed`: the latency the shaper adds between the game's
/// sound and the actuators' drive signal, and what feeding a pad costs.
///
/// Latency is algorithmic: a tone plays for 8 s (so the slow gain control settles on it), stops for
/// 0.5 s and starts again; the figure is the span from its second onset to the first drive sample
/// whose magnitude reaches 90 % of the peak the drive settles at (its last 100 ms of 600). It
/// includes the filters' group delay and the time the tone takes to reach a crest. Beside it, how
/// long the drive stays above 110 % of that peak after the onset (an overshoot; 0 when none). It is measured for each stream rate (48 kHz over USB, 3 kHz over
/// Bluetooth) at three block sizes, with the default options side by side with the filters alone
/// (no gain control: maximum gain 0 dB, level 0 dBFS).
/// Cost: over USB, 2,000 blocks of 256 stereo frames at 48 kHz through a `VoiceCoilSoundDrive` and
/// the stream's periods, written to a sink that only counts (no thread, no card): heap allocations
/// while feeding and writing (after one warm-up block) and time per block. Over Bluetooth, one
/// second of blocks fed in real time (each 20 ms ahead) with the stream's writer thread writing
/// reports to a file: heap allocations of the feeding thread and of the whole process (after 8
/// warm-up blocks), and the reports written.
func voiceCoilDriveFigures() -> [(String, String)] {
    var filtersOnly = VoiceCoilShaper.Options()
    filtersOnly.maximumGain = 0
    filtersOnly.level = 0
    let settings: [(name: String, key: String, options: VoiceCoilShaper.Options)] = [
        ("default (gain control)", "default", .init()), ("filters alone", "filters", filtersOnly),
    ]
    let tones: [(name: String, key: String, frequency: Double, decibels: Double)] = [
        ("150 Hz at -6 dBFS", "150_6", 150, -6), ("150 Hz at -30 dBFS", "150_30", 150, -30), ("60 Hz at -6 dBFS", "60_6", 60, -6),
    ]
    var pairs: [(String, String)] = []
    print("voice-coil drive: tone onset after 0.5 s of silence (the gain settled on the tone before) → first drive sample at 90 % of its settled peak, by block size 64 / 256 / 1024")
    for (transport, rate) in [("usb", 48_000), ("bluetooth", 3_000)] {
        guard let shaper = try? VoiceCoilShaper(sampleRate: 48_000, channelCount: 1, outputRate: rate) else {
            benchFailure("sound-feed: the shaper refused its options")
        }
        print("  \(transport) (\(rate) Hz): filters' group delay at the band's centre \(decimal(shaper.latency * 1e3, 2)) ms")
        pairs.append(("drive_\(transport)_group_delay_ms", decimal(shaper.latency * 1e3, 3)))
        for setting in settings {
            for tone in tones {
                let figures = [64, 256, 1_024].map { driveLatency(outputRate: rate, tone: tone, blockSize: $0, options: setting.options) }
                let boost = figures[0].boost
                print("    \(setting.name), \(tone.name): \(figures.map { decimal($0.latency / 1e6, 2) }.joined(separator: " / ")) ms; "
                      + "above 110 % of that peak until \(decimal(boost / 1e6, 1)) ms after the onset")
                for (size, figure) in zip([64, 256, 1_024], figures) {
                    pairs.append(("drive_\(transport)_\(setting.key)_\(tone.key)_block_\(size)_ms", decimal(figure.latency / 1e6, 3)))
                }
                pairs.append(("drive_\(transport)_\(setting.key)_\(tone.key)_boost_ms", decimal(boost / 1e6, 1)))
            }
        }
    }
    let usb = usbDriveCost()
    print("usb drive: \(usb.blocks) blocks of 256 stereo frames, \(usb.allocations) heap allocations while feeding and writing, "
          + "\(decimal(usb.nanosecondsPerBlock / 1000, 2)) µs per block (\(decimal(usb.nanosecondsPerBlock / 256, 1)) ns per frame), "
          + "\(usb.periods) periods written, \(usb.late) drive frames late")
    let bluetooth = bluetoothDriveCost()
    print("bluetooth drive: \(bluetooth.blocks) blocks fed in real time (after 8 warm-up blocks), \(bluetooth.feedingAllocations) heap "
          + "allocations on the feeding thread, \(bluetooth.allocations) in the process (the writer thread's included), "
          + "\(bluetooth.reports) reports written")
    pairs += [("drive_usb_blocks", "\(usb.blocks)"), ("drive_usb_mallocs", "\(usb.allocations)"),
              ("drive_usb_ns_per_block", decimal(usb.nanosecondsPerBlock, 1)), ("drive_usb_periods", "\(usb.periods)"), ("drive_usb_late_frames", "\(usb.late)"),
              ("drive_bluetooth_blocks", "\(bluetooth.blocks)"), ("drive_bluetooth_mallocs", "\(bluetooth.allocations)"),
              ("drive_bluetooth_feeding_mallocs", "\(bluetooth.feedingAllocations)"),
              ("drive_bluetooth_reports", "\(bluetooth.reports)")]
    return pairs
}

/// Nanoseconds from the tone's second onset to the first drive sample at 90 % of the settled peak,
/// and to the last one above 110 % of it (0 when none).
private func driveLatency(
    outputRate: Int, tone: (name: String, key: String, frequency: Double, decibels: Double), blockSize: Int,
    options: VoiceCoilShaper.Options
) -> (latency: Double, boost: Double) {
    let rate = 48_000
    // 8 s of the tone (the gain control settles on it), 0.5 s of silence, the tone again for 0.6 s.
    let onset = rate * 85 / 10
    let amplitude = Float(pow(10, tone.decibels / 20))
    let samples: [Float] = (0..<(rate * 91 / 10)).map { index in
        let start = index < onset ? 0 : onset
        guard index < rate * 8 || index >= onset else { return 0 }
        return amplitude * Float(sin(2 * Double.pi * tone.frequency * Double(index - start) / Double(rate)))
    }
    guard var shaper = try? VoiceCoilShaper(sampleRate: rate, channelCount: 1, outputRate: outputRate, options: options) else {
        benchFailure("sound-feed: the shaper refused its options")
    }
    var drive: [Float] = []
    drive.reserveCapacity(samples.count * outputRate / rate + 1)
    var scratch = [Float](repeating: 0, count: shaper.maximumOutputFrames(inputFrames: blockSize))
    samples.withUnsafeBufferPointer { all in
        var start = 0
        while start < all.count {
            let count = min(blockSize, all.count - start)
            let written = scratch.withUnsafeMutableBufferPointer { shaper.process(UnsafeBufferPointer(rebasing: all[start..<(start + count)]), into: $0) }
            drive += scratch[..<written]
            start += count
        }
    }
    let settled = drive[(drive.count - outputRate / 10)...].map { abs($0) }.max()!
    let onsetTime = Int64(onset) * 1_000_000_000 / Int64(rate)
    let firstAfter = Int(onsetTime * Int64(outputRate) / 1_000_000_000)
    let boosted = drive[firstAfter...].lastIndex { abs($0) > 1.1 * settled }.map { Double(Int64($0) * 1_000_000_000 / Int64(outputRate) - onsetTime) }
    for (index, sample) in drive.enumerated() {
        let time = Int64(index) * 1_000_000_000 / Int64(outputRate)
        if time >= onsetTime && abs(sample) >= 0.9 * settled { return (Double(time - onsetTime), max(0, boosted ?? 0)) }
    }
    benchFailure("sound-feed: \(tone.name) never reached 90 % of its drive")
}

/// A sound card that takes every period and only counts them: position 0 audible when opened.
private final class CountingCard: AudioSink, @unchecked Sendable {
    let format = AudioStreamFormat(sampleRate: 48_000, periodFrames: 48, periodCount: 3, sampleFormat: .signed16, channelCount: 4)
    let origin = MonotonicInstant.now
    var written: Int64 = 0

    func open() throws(AudioSinkError) -> AudioTimestamp? {
        AudioTimestamp(framesWritten: 0, delayFrames: 0, instant: origin)
    }

    func write(_ period: UnsafePointer<Float>) -> AudioSinkWrite {
        written += Int64(format.periodFrames)
        return AudioSinkWrite(status: .written, timestamp: AudioTimestamp(
            framesWritten: written, delayFrames: 0, instant: origin.advanced(by: written * 1_000_000_000 / 48_000)))
    }

    func close() {}
}

/// The 256-frame stereo block both costs feed: 60 Hz and 150 Hz.
private func mixBlock(rate: Int) -> [Float] {
    (0..<(256 * 2)).map { index in
        let t = Double(index / 2) / Double(rate)
        return Float(0.4 * sin(2 * Double.pi * 60 * t) + 0.2 * sin(2 * Double.pi * 150 * t))
    }
}

/// 2,000 blocks through a drive on a USB stream driven by hand, its periods written to a counting card.
private func usbDriveCost() -> (blocks: Int, allocations: Int64, nanosecondsPerBlock: Double, periods: Int, late: Int) {
    let card = CountingCard()
    let stream = USBHapticsStream(sink: card, device: "counting")
    guard (try? stream.open()) != nil,
          let haptics = try? DualSenseHDHaptics(node: TriggerNode(path: "/dev/null", transport: .usb), usb: stream),
          let drive = try? VoiceCoilSoundDrive(haptics: haptics, sampleRate: 48_000, channelCount: 2)
    else { benchFailure("sound-feed: no USB drive") }
    let block = mixBlock(rate: 48_000)
    let blocks = 2_000
    var heard = card.origin.advanced(by: 5_000_000)
    var periodsDue: Int64 = 0
    var elapsed: Int64 = 0
    var allocations: Int64 = 0
    block.withUnsafeBufferPointer { samples in
        for index in 0...blocks {
            if index == 1 { CBenchSupport_beginCountingAllocations() }
            let started = SystemMonotonicClock().now()
            drive.feed(samples, presentationTime: heard)
            // The periods up to this block's end, as the card would take them.
            periodsDue = (Int64(index + 1) * 256 + 240) / 48
            while Int64(stream.periods) < periodsDue { stream.process() }
            if index > 0 { elapsed += (SystemMonotonicClock().now() - started).nanoseconds }
            heard = heard.advanced(by: 256 * 1_000_000_000 / 48_000)
        }
        allocations = CBenchSupport_endCountingAllocations()
    }
    let periods = stream.periods
    let late = stream.liveSamplesDropped.lateFrames
    drive.stop()
    haptics.close()
    return (blocks, allocations, Double(elapsed) / Double(blocks), periods, late)
}

/// One second of blocks fed in real time to a drive over Bluetooth, reports written to a file.
private func bluetoothDriveCost() -> (blocks: Int, allocations: Int64, feedingAllocations: Int64, reports: Int) {
    var template = Array("/tmp/haptics-bench-hidraw-XXXXXX".utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard descriptor >= 0 else { benchFailure("sound-feed: no temporary file") }
    Glibc.close(descriptor)
    let path = String(cString: template.withUnsafeBufferPointer { $0.baseAddress! })
    defer { unlink(path) }
    guard let haptics = try? DualSenseHDHaptics(node: TriggerNode(path: path, transport: .bluetooth), soundCard: nil),
          let drive = try? VoiceCoilSoundDrive(haptics: haptics, sampleRate: 48_000, channelCount: 2)
    else { benchFailure("sound-feed: no Bluetooth drive") }
    let block = mixBlock(rate: 48_000)
    let blocks = 188
    let start = MonotonicInstant.now
    var allocations: Int64 = 0
    var feedingAllocations: Int64 = 0
    block.withUnsafeBufferPointer { samples in
        for index in 0..<blocks {
            let offset = Int64(index) * 256 * 1_000_000_000 / 48_000
            SystemMonotonicClock.sleep(until: start.advanced(by: offset))
            // Warm-up: the first block and its first report (the runtime's lazily made state).
            if index == 8 {
                CBenchSupport_beginCountingAllocations()
                CBenchSupport_beginCountingThreadAllocations()
            }
            drive.feed(samples, presentationTime: start.advanced(by: offset + 20_000_000))
        }
        feedingAllocations = CBenchSupport_endCountingThreadAllocations()
        SystemMonotonicClock.sleep(until: .now.advanced(by: 60_000_000))
        allocations = CBenchSupport_endCountingAllocations()
    }
    drive.stop()
    haptics.close()
    var status = stat()
    stat(path, &status)
    // The report selecting audio haptics (78 bytes), then reports of 142.
    return (blocks - 8, allocations, feedingAllocations, (Int(status.st_size) - 78) / 142)
}
