import Glibc
import Haptics
import HapticsAudio
import HapticsMeasurement
import HapticsPatterns
import HapticsSystem
import HapticsTriggers
import HapticsVirtualDevices
import HapticsVoiceCoils

/// `hd-haptics`: a pattern played on a DualSense's voice coils → its first sample at the pad, in the
/// kernel testbench guest, on both connections.
///
/// Bluetooth: `BluetoothHapticsStream.play(_:at:)` (now) → the first report 0x32 at a virtual
/// DualSense (uhid), interleaved in blocks with raw C, a `write()` of the same first report to the
/// hidraw node on the calling thread, and with the engine: a prepared pattern player's `start()`
/// (now), as a game calls it, on the same pad (the engine's own stream of it). USB: `USBHapticsStream.play(_:at:)` (now) → the first
/// non-zero sample of channel 2 arriving at the far end of snd-aloop's 4-channel cable, which
/// stands in for the pad's sound card, with a buffer of 16 periods of 1 ms (snd-aloop moves frames
/// on the kernel's 4 ms tick; with 8 periods the stream never found its timing), kept full: a play
/// takes back what the card has not played and writes the pattern from 1 ms past now. The buffer
/// and the times the card ran dry are printed beside the figure.
func runHDHapticsBenchmark() {
    // 20 ms of a 300 Hz tone at full intensity: its first frame is already non-zero.
    let pattern = Pattern(events: [PatternEvent(kind: .hapticContinuous, time: 0, duration: 0.02,
                                                parameters: EventParameters(hapticIntensity: 1, hapticSharpness: 1))])
    var entries: [(String, String)] = []
    print("hd-haptics: a pattern played → its first sample at the pad, in a QEMU guest")
    let bluetooth = bluetoothSamples(pattern)
    let floor = Double(percentile(bluetooth["raw_c"]!.sorted(), 0.5))
    for side in ["raw_c", "haptics", "engine"] {
        let sorted = bluetooth[side]!.sorted()
        let (p50, p99) = (percentile(sorted, 0.5), percentile(sorted, 0.99))
        let ratio = Double(p50) / floor
        let name = switch side {
        case "raw_c": "Bluetooth, raw C write() of the report to the hidraw node"
        case "haptics": "Bluetooth, BluetoothHapticsStream.play()"
        default: "Bluetooth, a prepared pattern player's start() on the engine"
        }
        print("  \(name) → first report 0x32 at the virtual pad: p50 \(microseconds(p50)) µs, p99 \(microseconds(p99)) µs, "
            + "max \(microseconds(sorted.last!)) µs, \(decimal(ratio)) × raw C at p50")
        entries.append(("bluetooth_\(side)", jsonObject([("p50_us", microseconds(p50)), ("p99_us", microseconds(p99)),
                                                         ("ratio_p50_to_raw_c", decimal(ratio)), ("calls", String(sorted.count))])))
    }
    // The card's buffer stays full; a play takes back what the card has not played.
    for periods in [16] {
        let (usb, buffer, underruns) = usbSamples(pattern, periodCount: periods)
        let sorted = usb.sorted()
        let (p50, p99) = (percentile(sorted, 0.5), percentile(sorted, 0.99))
        print("  USB, USBHapticsStream.play() → first non-zero sample at the loopback's capture, a buffer of \(periods) periods: "
            + "p50 \(microseconds(p50)) µs, p99 \(microseconds(p99)) µs, max \(microseconds(sorted.last!)) µs "
            + "(the buffer: \(microseconds(buffer)) µs; the card ran dry \(underruns) times)")
        entries.append(("usb_haptics_\(periods)_periods", jsonObject([("p50_us", microseconds(p50)), ("p99_us", microseconds(p99)),
                                                                      ("buffer_us", microseconds(buffer)), ("underruns", String(underruns)),
                                                                      ("calls", String(sorted.count))])))
    }
    print("note: QEMU TCG guest: absolute microseconds mean little; the ratio, measured side by side, is the figure.")
    print(jsonObject([("hd_haptics", jsonObject(entries))]))
}

/// Call → first report 0x32 at a virtual DualSense over Bluetooth, per side, in nanoseconds.
private func bluetoothSamples(_ pattern: Pattern) -> [String: [Int64]] {
    let pad: VirtualDualSense
    do { pad = try VirtualDualSense(connection: .bluetooth) } catch { benchFailure("virtual DualSense: \(error)") }
    defer { pad.close() }
    guard let node = try? pad.waitForGamepadNode(), let hidraw = try? pad.waitForHidrawNode() else {
        benchFailure("the virtual DualSense got no event or hidraw node")
    }
    let haptics: BluetoothHapticsStream
    do { haptics = try BluetoothHapticsStream(eventNode: node) } catch { benchFailure("Bluetooth stream: \(error)") }
    defer { haptics.close() }
    // The engine on the same pad, its player prepared as a game prepares it (the voice coils open).
    let engine: HapticEngine
    let player: HapticPatternPlayer
    do {
        engine = HapticEngine(outputs: [try HapticEngine.evdevOutput(path: node)])
        try engine.start()
        player = try engine.makePlayer(pattern: pattern)
    } catch {
        benchFailure("engine: \(error)")
    }
    defer { engine.stop() }
    player.prepare()
    guard let device = engine.devices.first, engine.playsHDHaptics(on: device) else {
        benchFailure("engine: the pad's voice coils did not open")
    }
    let raw: FileDescriptor
    do { raw = try FileDescriptor.open(hidraw, .writeOnly, options: [.closeOnExec]) } catch { benchFailure("\(hidraw): \(error)") }
    defer { try? raw.close() }

    // The pattern's first report, as raw C writes it.
    var renderer = WaveformRenderer(pattern, sampleRate: VoiceCoilFrames.bluetoothSampleRate)
    var waveform = [Float](repeating: 0, count: DualSenseHapticsReport.framesPerReport)
    waveform.withUnsafeMutableBufferPointer { renderer.render(from: 0, into: $0) }
    var frames = [Int8](repeating: 0, count: 2 * DualSenseHapticsReport.framesPerReport)
    frames.withUnsafeMutableBufferPointer { VoiceCoilFrames.bluetoothFrames(waveform, count: waveform.count, into: $0.baseAddress!) }
    let report = frames.withUnsafeBufferPointer { DualSenseHapticsReport(frames: $0, number: 0).bytes }

    func measure(_ side: String) -> Int64 {
        let before = pad.outputReports.count
        let start = MonotonicInstant.now
        if side == "haptics" {
            do { try haptics.play(pattern, at: start) } catch { benchFailure("Bluetooth stream: \(error)") }
        } else if side == "engine" {
            guard player.start().isScheduled else { benchFailure("engine: the player did not start") }
        } else {
            let written = report.withUnsafeBytes { Glibc.write(raw.rawValue, $0.baseAddress, $0.count) }
            guard written == report.count else { benchFailure("raw C: write: errno \(errno)") }
        }
        let first = firstReport(at: pad, after: before, side: side, kind: "report 0x32") { $0.isHapticsReport }
        // Apart, so that each call finds the pad and the writer idle (the pattern's 2 reports written).
        SystemMonotonicClock.sleep(until: .now + .milliseconds(40))
        return first.receivedAt.nanoseconds - start.nanoseconds
    }

    return interleavedSamples(["raw_c", "haptics", "engine"], measure)
}

/// Call → first non-zero sample of channel 2 at snd-aloop's capture end, in nanoseconds, the
/// playback buffer's length and how many times the card ran dry.
private func usbSamples(_ pattern: Pattern, periodCount: Int) -> (samples: [Int64], buffer: Int64, underruns: Int) {
    guard access("/proc/asound/Loopback", F_OK) == 0 else { benchFailure("snd-aloop is not loaded: no Loopback card") }
    // snd-aloop moves frames on the kernel's tick (4 ms at 250 Hz): the buffer holds a few ticks.
    let haptics = USBHapticsStream(card: VoiceCoilSoundCard(device: "hw:Loopback,0,3", number: nil, id: nil), periodCount: periodCount)
    do { try haptics.start() } catch { benchFailure("USB stream: \(error)") }
    defer { haptics.close() }
    let capture: ALSACaptureStream
    do {
        capture = try ALSACaptureStream(device: "hw:Loopback,1,3", sampleRate: 48_000, periodFrames: 48,
                                        bufferFrames: 48_000, channelCount: 4)
    } catch {
        benchFailure("capture: \(error)")
    }
    defer { capture.close() }
    func read() {
        do { try capture.readPeriod() } catch { benchFailure("capture: \(error)") }
    }
    while capture.reads < 200 { read() }

    func measure() -> Int64? {
        let before = capture.frameCount
        let start = MonotonicInstant.now
        haptics.play(pattern, at: start)
        var frame = before
        while true {
            read()
            while frame < capture.frameCount, capture.sample(frame: frame, channel: 2) == 0 { frame += 1 }
            if frame < capture.frameCount { break }
            if MonotonicInstant.now > start + .seconds(2) { benchFailure("USB: no sample within 2 s") }
        }
        // Until the pattern and what followed it in the card have played.
        let end = MonotonicInstant.now + .milliseconds(60)
        while MonotonicInstant.now < end { read() }
        // A frame after a gap in the capture cannot be timed.
        guard !capture.gaps.contains(where: { $0.frame > before }), let heard = capture.instant(ofFrame: frame) else { return nil }
        return heard.nanoseconds - start.nanoseconds
    }
    for _ in 0..<5 { _ = measure() }
    var samples: [Int64] = []
    var attempts = 0
    while samples.count < 60 && attempts < 120 {
        attempts += 1
        if let sample = measure() { samples.append(sample) }
    }
    guard !samples.isEmpty else { benchFailure("USB: every capture had a gap") }
    return (samples, Int64(haptics.format.bufferFrames) * 1_000_000_000 / Int64(haptics.format.sampleRate), haptics.underruns)
}
