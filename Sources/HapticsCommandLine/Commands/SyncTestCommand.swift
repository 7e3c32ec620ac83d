import HapticsMeasurement
import Haptics
import HapticsPatterns
import HapticsRendering
import HapticsSystem

/// `haptics sync-test`: measures, through a loopback sound card, how closely the engine lands a
/// sound cue's audible onset on its haptic's felt onset.
struct SyncTestCommand: Command {
    static let name = "sync-test"
    static let abstract = "Measure sound-to-haptic sync through a loopback sound card (snd-aloop)."
    static let usage = ["sync-test [--device <path|name>] [--audio <alsa-device>] [--capture <alsa-device>] [--cues <n>] [--profile <name|file>] [--trace <file.json>] [--json]"]
    static let options = [
        HelpRow("--device <device>", "Where the haptics play: an event node path or part of a device's name. Default: a uinput device created for the test (needs write access to /dev/uinput), else the first force-feedback device."),
        HelpRow("--audio <alsa-device>", "Where the sound plays (default: hw:Loopback,0,0)."),
        HelpRow("--capture <alsa-device>", "Where the played sound is captured again (default: hw:Loopback,1,0)."),
        HelpRow("--cues <n>", "How many cues to play, cycling through the vocabulary (default: 9)."),
        HelpRow("--profile <name|file>", "Profile of the created uinput device: a built-in name or a profile file (default: generic-rumble, 60 ms rise time)."),
        TraceFile.help,
        HelpRow("--json", "One JSON object per cue, then one with the summary."),
    ]
    static let discussion = """
        Each cue is played through the engine with its sound: the haptic starts early by the device's
        rise time and the sound is placed to be heard at the same instant. The capture gives the
        instant each sound was heard (CLOCK_MONOTONIC); the device gives the instant its haptic
        started (the kernel's timestamp on a uinput device). The residual is heard − (start + rise
        time). Exits 1 when a residual exceeds one audio period or a cue was not found.
        Load the loopback card first: sudo modprobe snd-aloop.
        """

    var configuration = SyncLoopbackTest.Configuration()
    var deviceArgument: String?
    var cues = 9
    var json = false

    init(arguments: [String]) throws(CommandLineError) {
        var cursor = ArgumentCursor(arguments)
        while let item = cursor.next() {
            switch item {
            case let .option("device", inline): deviceArgument = try cursor.value(for: "device", inline: inline)
            case let .option("audio", inline): configuration.playbackDevice = try cursor.value(for: "audio", inline: inline)
            case let .option("capture", inline): configuration.captureDevice = try cursor.value(for: "capture", inline: inline)
            case let .option("trace", inline): configuration.tracePath = try cursor.value(for: "trace", inline: inline)
            case let .option("cues", inline):
                let value = try cursor.value(for: "cues", inline: inline)
                guard let count = Int(value), (1...1_000).contains(count) else {
                    throw .usage("--cues needs a whole number from 1 to 1000, not '\(value)'")
                }
                cues = count
            case let .option("profile", inline):
                configuration.profile = try DeviceOptions.profile(try cursor.value(for: "profile", inline: inline))
            case .option("json", nil): json = true
            case let .option(name, _): throw .usage("unknown option --\(name)")
            case let .shortOption(letter): throw .usage("unknown option -\(letter)")
            case let .positional(value): throw .usage("unexpected argument '\(value)'")
            }
        }
    }

    func run(_ context: CommandContext) throws(CommandLineError) -> Int32 {
        var configuration = self.configuration
        configuration.inputDirectory = DeviceLookup.directory(context)
        if let deviceArgument {
            configuration.hapticDevice = try DeviceLookup.find(deviceArgument, context: context).path
        }
        let vocabulary = Feedback.vocabulary
        let plan = (0..<cues).map { SyncLoopbackTest.Cue.feedback(vocabulary[$0 % vocabulary.count]) }
        let result: SyncLoopbackTest.Result
        do {
            result = try SyncLoopbackTest(configuration: configuration).run(plan)
        } catch {
            throw .failure(error.description)
        }
        for line in json ? Self.jsonLines(result) : Self.report(result, configuration: configuration) {
            context.console.line(line)
        }
        let late = result.measurements.filter { $0.residual > result.period || $0.residual < .zero - result.period }
        guard result.missing.isEmpty, late.isEmpty else {
            context.console.errorLine("haptics sync-test: \(late.count) residuals exceed one audio period, \(result.missing.count) cues not found")
            return ExitStatus.failure
        }
        return ExitStatus.success
    }

    /// One `cue` record per cue measured (times in ms from the cue's onset), then a `sync-test`
    /// summary.
    static func jsonLines(_ result: SyncLoopbackTest.Result) -> [String] {
        var lines: [String] = []
        for (index, row) in result.measurements.enumerated() {
            var line = JSONLine(record: "cue")
            line.add("cue", index + 1)
            line.add("name", row.cue.name)
            line.add("haptic_start_ms", (row.hapticStart - row.onset).inMilliseconds, digits: 3)
            line.add("felt_ms", (row.felt - row.onset).inMilliseconds, digits: 3)
            line.add("heard_ms", (row.heard - row.onset).inMilliseconds, digits: 3)
            line.add("residual_ms", row.residual.inMilliseconds, digits: 3)
            lines.append(line.text)
        }
        var summary = JSONLine(record: "sync-test")
        summary.add("device", result.hapticDevice)
        summary.add("profile", result.profile.name)
        summary.add("cues", result.measurements.count)
        summary.add("missing", raw: "[" + result.missing.map(JSONLine.quote).joined(separator: ",") + "]")
        summary.add("period_ms", result.period.inMilliseconds, digits: 3)
        if let p50 = result.absoluteResidual(percentile: 0.5), let p95 = result.absoluteResidual(percentile: 0.95),
           let maximum = result.absoluteResidual(percentile: 1) {
            summary.add("residual_p50_ms", p50.inMilliseconds, digits: 3)
            summary.add("residual_p95_ms", p95.inMilliseconds, digits: 3)
            summary.add("residual_max_ms", maximum.inMilliseconds, digits: 3)
        }
        lines.append(summary.text)
        return lines
    }

    /// The report: a header, one row per cue (times in ms from the cue's onset), the cues not
    /// found, and the summary.
    static func report(_ result: SyncLoopbackTest.Result, configuration: SyncLoopbackTest.Configuration) -> [String] {
        func ms(_ span: Duration) -> String { JSONLine.number(span.inMilliseconds, digits: 3) }
        func column(_ text: String, _ width: Int) -> String {
            String(repeating: " ", count: max(0, width - text.count)) + text
        }
        var lines = [
            "haptics: \(PrintableText.escaped(result.hapticDevice)), profile \(result.profile.name) (rise \(ms(result.profile.riseTime)) ms); start = \(result.hapticTiming)",
            "sound: \(PrintableText.escaped(configuration.playbackDevice)) captured on \(PrintableText.escaped(configuration.captureDevice)); period \(ms(result.period)) ms, output latency \(ms(result.latency)) ms",
            "",
            "   #  cue                   haptic start   felt (+rise)      heard   residual (ms from the cue's onset)",
        ]
        for (index, row) in result.measurements.enumerated() {
            let onset = row.onset
            let cue = PrintableText.escaped(row.cue.name)
            let name = cue + String(repeating: " ", count: max(0, 20 - cue.count))
            lines.append(column("\(index + 1)", 4) + "  " + name
                + column(ms(row.hapticStart - onset), 14) + column(ms(row.felt - onset), 15)
                + column(ms(row.heard - onset), 11) + column(ms(row.residual), 11))
        }
        for missing in result.missing { lines.append("not found: \(PrintableText.escaped(missing))") }
        lines.append(contentsOf: writeLines(result))
        lines.append(contentsOf: streamLines(result.streams))
        if let p50 = result.absoluteResidual(percentile: 0.5), let p95 = result.absoluteResidual(percentile: 0.95),
           let maximum = result.absoluteResidual(percentile: 1) {
            lines.append("")
            lines.append("|residual| over \(result.measurements.count) cues: p50 \(ms(p50)) ms, p95 \(ms(p95)) ms, max \(ms(maximum)) ms (one audio period: \(ms(result.period)) ms)")
        }
        return lines
    }

    /// The engine's side of the haptics, from its trace: how late the writes that started them
    /// began and how long after each the start was seen, over every cue, then one line per cue off
    /// by more than one period — whether the engine wrote it late or the device got it late, and
    /// the longest stall of the machine on the haptic's way.
    static func writeLines(_ result: SyncLoopbackTest.Result) -> [String] {
        func ms(_ span: Duration) -> String { SyncLoopbackTest.milliseconds(span) }
        let rows = result.measurements.enumerated().compactMap { index, row in row.hapticWrite.map { (index + 1, row, $0) } }
        guard !rows.isEmpty else { return [] }
        // p50 by nearest rank, and the max with its cue (`values` is not empty).
        func summary(_ values: [(cue: Int, span: Duration)]) -> String {
            let sorted = values.sorted { $0.span < $1.span }
            let median = sorted.nearestRank(0.5)!.span, maximum = sorted[sorted.count - 1]
            return "p50 \(ms(median)) ms, max \(ms(maximum.span)) ms (cue \(maximum.cue))"
        }
        let woken = rows.compactMap { cue, _, write in write.woke.map { (cue: cue, woke: $0, write: write) } }
        let wakes = woken.isEmpty ? "" : "the realtime thread woke after due \(summary(woken.map { ($0.cue, $0.woke - $0.write.deadline) })) "
            + "and began writing after it woke \(summary(woken.map { ($0.cue, $0.write.began - $0.woke) })) (\(woken.count) of \(rows.count) cues); "
        var lines = [
            "haptic writes: began after due \(summary(rows.map { ($0.0, $0.2.lateness) })); " + wakes
                + "start seen after the write began \(summary(rows.map { ($0.0, $0.1.hapticStart - $0.2.began) }))",
        ]
        for (cue, row, write) in rows where max(row.residual, .zero - row.residual) > result.period {
            let thread = write.thread.map { " on \(PrintableText.escaped($0))" } ?? ""
            let woke = write.woke.map { ", which woke \(ms($0 - write.deadline)) ms after it was due," } ?? ""
            lines.append("cue \(cue) \(PrintableText.escaped(row.cue.name)) off by more than a period: its haptic's write, "
                + "due at \(ms(write.deadline - row.onset)) ms, began \(ms(write.lateness)) ms after\(thread)\(woke) "
                + "and took \(ms(write.returned - write.began)) ms; the start was seen \(ms(row.hapticStart - write.began)) ms after it began; "
                + (row.hapticStall.map { "the machine stalled \(ms($0)) ms on its way" } ?? "no machine stall seen on its way"))
        }
        return lines
    }

    /// What the sound devices and the machine went through: enough to tell from the report alone
    /// why a sound was heard off its time (an underrun, a lost stretch of capture), a haptic started
    /// late (the machine stalled), or a cue was not found.
    static func streamLines(_ streams: SyncLoopbackTest.Streams) -> [String] {
        func ms(_ span: Duration) -> String { SyncLoopbackTest.milliseconds(span) }
        let playback = streams.playback
        var lines = [
            "playback: \(playback.periods) periods, \(playback.underruns) underruns, \(playback.timingJumps) timing jumps, "
                + "\(playback.late) late voices (max \(ms(playback.maximumLateness)) ms), \(playback.dropped) dropped",
            "capture: \(streams.captureReads) reads, buffer \(streams.captureBufferFrames) frames, "
                + "\(streams.captureOverruns) overruns, \(streams.captureTimeouts) timeouts, \(streams.captureGaps.count) gaps",
        ]
        for gap in streams.captureGaps {
            let from = streams.firstOnset.map { " at \(ms(gap.start - $0)) ms from the first cue's onset" } ?? ""
            lines.append("capture gap: \(ms(gap.duration)) ms\(from) (before frame \(gap.frame))")
        }
        if let probe = streams.stallProbe {
            let longest = streams.stalls.map(\.duration).max().map { ", longest \(ms($0)) ms" } ?? ""
            lines.append("machine: \(streams.stalls.count) stalls over \(ms(StallProbe.threshold)) ms (probe: \(probe))\(longest)")
        }
        for line in streams.disturbances { lines.append("while cue \(PrintableText.escaped(line))") }
        return lines
    }
}
