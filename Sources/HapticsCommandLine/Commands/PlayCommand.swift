import HapticsMeasurement
import Haptics
import HapticsDevices
import HapticsPatterns
import HapticsRendering
import HapticsScheduler
import HapticsSystem
import HapticsViews

/// `haptics play`: plays a feedback, a pattern file, a feedbackd theme's event or the haptics derived
/// from a sound, and shows what the device did.
struct PlayCommand: Command {
    static let name = "play"
    static let abstract = "Play a feedback, a pattern file, a feedbackd theme's event, or the haptics of a sound."
    static let usage = [
        "play <feedback|file.ahap> [--device <path|name|simulated>] [--rumble] [--profile <name|file>] [--audio <alsa-device|file.wav|none>] [-o <file.svg|file.wav>]... [--trace <file.json>] [--json]",
        "play <feedback|file.ahap> --hd [--device <path|name>] [--audio-card <card>] [--json]",
        "play <event-name> --theme <theme> [--theme-path <folder>]... [--level full|quiet|silent] [--sounds <folder>] [--device …] [--audio …] [-o …] [--trace …] [--json]",
        "play <sound.wav> [--actuator rumble|voice-coil] [--sensitivity <0…1>] [--gain <dB>] [--band <low>-<high>] [--min-event <s>] [--min-gap <s>] [--tolerance <x>] [--device …] [--audio …] [-o …] [--trace …] [--json]",
    ]
    static let options = [
        HelpRow("<feedback|file.ahap>", "A feedback (notification.success, impact.heavy, impact.light:0.5, selection) or a pattern file (AHAP or a .haptic clip)."),
        HelpRow("<sound.wav>", "A sound: the haptics derived from it (as `convert` writes them), with the sound itself heard with --audio."),
        HelpRow("<event-name>", "With --theme: a feedbackd event (button-pressed, message-new-email, …), or a feedback with a feedbackd equivalent (selection: key-pressed)."),
        HelpRow("--theme <theme>", "A feedbackd theme: a file, or a name found on the theme search path; its parents are found there too."),
        ThemeSearchPath.help,
        HelpRow("--level <level>", "The feedbackd profile: full (default) plays the full, quiet and silent sections, quiet plays quiet and silent, silent only silent."),
        HelpRow("--sounds <folder>", "Where a theme's Sound feedbacks are, as <effect>.wav (default: the theme's folder); heard with --audio."),
    ] + SoundOptions.help + DeviceOptions.help + [
        HelpRow("--audio <output>", "Also play the sound: the feedback's sound cue, the file's audio events, or the theme event's sounds. An ALSA device (default, hw:0,0), a .wav file to render it to (time 0 = the felt onset), or none (default)."),
        HelpRow("--hd", "Play it as HD haptics on a DualSense's voice coils, or fail: through the pad's sound card over USB, report 0x32 over Bluetooth. A pattern file plays so on a DualSense anyway when it can."),
        HelpRow("--rumble", "Play a pattern file as rumble on a DualSense (the kernel's emulation) instead of HD haptics."),
        HelpRow("--audio-card <card>", "With --hd over USB: the pad's sound card where it is not found from the pad: a number, an ALSA id or a hw: device."),
    ] + [
        OutputFile.help([(.svg, "the motors over time as a plot"), (.wav, "the haptic signal as audible sound (48 kHz)")], repeatable: true),
        TraceFile.help,
        HelpRow("--json", "One JSON object per line: every device command, then a summary."),
    ]
    static let discussion = """
        On the simulated device the motors are drawn on one line while the pattern plays (on a
        terminal), then in full as they were driven through the realtime scheduler. On a real device the feedback is prepared (effects uploaded)
        and then played; -o needs the simulated device. With --audio the sound is heard
        when the haptic is felt: the device starts early by its rise time. With --theme the event's
        vibrations at the level are felt together, its sounds are heard with --audio, and what is not
        played (a missing sound, an LED) is said on standard error.
        """

    var target: String
    var device = DeviceOptions()
    var outputs = OutputFiles()
    var plotPath: String? { outputs.file(.svg)?.path }
    var wavPath: String? { outputs.file(.wav)?.path }
    var audio = AudioChoice.none
    var json = false
    /// `--theme`: the target is an event of this feedbackd theme.
    var themePath: String?
    /// `--theme-path` folders, in order.
    var themeFolders: [String] = []
    var level = FeedbackdLevel.full
    var levelGiven = false
    var soundFolder: String?
    var tracePath: String?
    var sound = SoundOptions()
    /// `--hd`: play on the voice coils, through `audioCard` over USB when given.
    var hd = false
    /// `--rumble`: a pattern file plays as rumble on a DualSense, not as HD haptics.
    var rumble = false
    var audioCard: String?

    init(arguments: [String]) throws(CommandLineError) {
        var cursor = ArgumentCursor(arguments)
        var target: String?
        while let item = cursor.next() {
            if try device.parse(item, &cursor) { continue }
            if try outputs.parse(item, &cursor, accepted: [.svg, .wav]) { continue }
            if try sound.parse(item, &cursor) { continue }
            switch item {
            case let .option("trace", inline): tracePath = try cursor.value(for: "trace", inline: inline)
            case let .option("audio", inline): audio = AudioChoice(argument: try cursor.value(for: "audio", inline: inline))
            case .option("json", nil): json = true
            case .option("hd", nil): hd = true
            case .option("rumble", nil): rumble = true
            case let .option("audio-card", inline): audioCard = try cursor.value(for: "audio-card", inline: inline)
            case let .option("theme", inline): themePath = try cursor.value(for: "theme", inline: inline)
            case let .option("theme-path", inline): themeFolders.append(try cursor.value(for: "theme-path", inline: inline))
            case let .option("sounds", inline): soundFolder = try cursor.value(for: "sounds", inline: inline)
            case let .option("level", inline):
                let value = try cursor.value(for: "level", inline: inline)
                guard let parsed = FeedbackdLevel(rawValue: value) else {
                    throw .usage("--level must be full, quiet or silent, not '\(value)'")
                }
                level = parsed
                levelGiven = true
            case let .option(name, _): throw .usage("unknown option --\(name)")
            case let .shortOption(letter): throw .usage("unknown option -\(letter)")
            case let .positional(value):
                guard target == nil else { throw .usage("unexpected argument '\(value)'") }
                target = value
            }
        }
        guard let target else {
            throw .usage(themePath == nil ? "missing the feedback or file to play" : "missing the event to play")
        }
        self.target = target
        if themePath == nil, levelGiven || soundFolder != nil || !themeFolders.isEmpty {
            throw .usage("--level, --sounds and --theme-path need --theme")
        }
        if themePath != nil, let first = sound.given.first {
            throw .usage("\(first) applies to a sound (a .wav file), not to a theme's event")
        }
        if audioCard != nil && !hd { throw .usage("--audio-card needs --hd") }
        if hd && rumble { throw .usage("--hd and --rumble exclude each other") }
        if hd, audio != .none || !outputs.files.isEmpty || tracePath != nil || device.deviceArgument == "simulated" {
            throw .usage("--hd plays on a DualSense's voice coils only: leave out --audio, -o, --trace and --device simulated")
        }
        if let deviceArgument = device.deviceArgument, deviceArgument != "simulated", !outputs.files.isEmpty {
            throw .usage("-o needs --device simulated")
        }
    }

    func run(_ context: CommandContext) throws(CommandLineError) -> Int32 {
        let target: PlayTarget
        if let themePath {
            target = try PlayTarget(event: self.target, themeArgument: themePath,
                                    search: ThemeSearchPath(environment: context.environment, extra: themeFolders),
                                    level: level, soundFolder: soundFolder)
        } else {
            target = try PlayTarget(argument: self.target, sound: sound)
        }
        for warning in target.warnings { context.console.errorLine(warning.description) }
        if hd {
            guard let path = try device.realDevice(context, simulatedOnly: false) else {
                throw .failure("--hd needs a DualSense: none was found")
            }
            return try Self.playHD(target, path: path, audioCard: audioCard, json: json, context: context)
        }
        let trace = tracePath.map(TraceFile.init)
        if let path = try device.realDevice(context, simulatedOnly: !outputs.files.isEmpty) {
            let run = try DeviceRun.play(target, on: device.output(path: path), audio: audio, rumble: rumble, trace: trace)
            try trace?.write(context)
            for note in run.notes { context.console.errorLine(note) }
            Self.report(run, name: target.name, json: json, context: context)
            return run.outcome.isScheduled ? ExitStatus.success : ExitStatus.failure
        }
        // The motors drawn live on a terminal that can redraw a line; the drawing follows anyway.
        let live = !json && context.console.isTerminal && context.environment["TERM"] != "dumb" ? context.console : nil
        let run = try SimulatedRun.play(target, profile: device.profile, audio: audio, trace: trace, live: live)
        try trace?.write(context)
        for note in run.notes { context.console.errorLine(note) }
        try Self.report(run, name: target.name, json: json, plotPath: plotPath, wavPath: wavPath, context: context)
        guard run.outcome.isScheduled else { return ExitStatus.failure }
        return ExitStatus.success
    }

    /// Plays `target` as HD haptics on the pad at `path`, waits until it has played, and says how it went.
    static func playHD(_ target: PlayTarget, path: String, audioCard: String?, json: Bool, context: CommandContext) throws(CommandLineError) -> Int32 {
        let haptics: DualSenseHDHaptics
        do {
            haptics = try DualSenseHDHaptics(eventNode: path, audioCard: audioCard)
        } catch {
            throw .failure(PrintableText.escaped(error.description))
        }
        defer { haptics.close() }
        let pattern = target.pattern
        do {
            try haptics.play(pattern)
        } catch {
            throw .failure(PrintableText.escaped(error.description))
        }
        // The last report or period is written when the pattern ends; the pad plays it just after.
        let seconds = min(max(pattern.duration, 0), 600)
        SystemMonotonicClock.sleep(until: .now + .nanoseconds(Int64(seconds * 1e9)) + .milliseconds(50))
        let through = haptics.soundCard.map { "USB through \($0)" } ?? "\(haptics.transport) through \(haptics.node.path)"
        if json {
            var line = JSONLine(record: "play")
            line.add("feedback", target.name)
            line.add("device", path)
            line.add("hd_haptics", haptics.transport.rawValue)
            line.add("through", haptics.soundCard?.device ?? haptics.node.path)
            context.console.line(line.text)
        } else {
            context.console.line("played \(PrintableText.escaped(target.name)) as HD haptics on \(PrintableText.escaped(path)) (\(PrintableText.escaped(through)))")
        }
        return ExitStatus.success
    }

    /// Prints what a run on a real device did.
    static func report(_ run: DeviceRun, name: String, json: Bool, context: CommandContext) {
        let path = run.output.path ?? "?"
        if json {
            var summary = JSONLine(record: "play")
            summary.add("feedback", name)
            summary.add("device", path)
            summary.add("name", run.output.name)
            summary.add("profile", run.output.profile.name)
            run.outcome.addFields(to: &summary, requestedAt: run.requestedAt)
            if let audio = run.audio { PlaySound.add(audio, requestedAt: run.requestedAt, to: &summary) }
            if let hd = run.hdHaptics { summary.add("hd_haptics", hd) }
            context.console.line(summary.text)
            return
        }
        let actuators = run.hdHaptics.map { $0 ? ", as HD haptics" : ", as rumble" } ?? ""
        context.console.line("\(PrintableText.escaped(name)) on \(PrintableText.escaped(run.output.name)) (\(PrintableText.escaped(path))), profile \(run.output.profile.name)\(actuators)")
        switch run.outcome {
        case let .scheduled(feltAt):
            context.console.line("felt at +\(JSONLine.number((feltAt - run.requestedAt).inMilliseconds, digits: 1)) ms")
        case let .notPlayed(reason):
            context.console.line("not played: \(reason)")
        }
        if let audio = run.audio { context.console.line(PlaySound.text(audio, requestedAt: run.requestedAt)) }
    }

    /// Prints (or writes) what a run did: JSON lines, or a terminal drawing and a summary.
    static func report(_ run: SimulatedRun, name: String, json: Bool, plotPath: String?, wavPath: String?, context: CommandContext) throws(CommandLineError) {
        let timeline = MotorTimeline(recording: run.recording, origin: run.requestedAt, actuator: run.profile.actuator)
        if let plotPath {
            try OutputFile.write(Array(SVGPlot.draw(timeline, title: "\(name) on \(run.profile.displayName)", events: []).utf8), to: plotPath, context)
        }
        if let wavPath {
            try OutputFile.write(MotorSound().synthesizeWAV(timeline), to: wavPath, context)
        }
        if json {
            for line in run.commandLines(name: name) { context.console.line(line) }
            var summary = JSONLine(record: "play")
            summary.add("feedback", name)
            summary.add("device", "simulated")
            summary.add("profile", run.profile.name)
            run.outcome.addFields(to: &summary, requestedAt: run.requestedAt)
            summary.add("commands", run.recording.count)
            if let audio = run.audio { PlaySound.add(audio, requestedAt: run.requestedAt, to: &summary) }
            context.console.line(summary.text)
            return
        }
        let color = context.usesColor
        context.console.line("\(PrintableText.escaped(name)) on the simulated device (profile \(run.profile.name))")
        context.console.write(TerminalPlot.draw(timeline, width: 72, color: color))
        switch run.outcome {
        case let .scheduled(feltAt):
            let felt = JSONLine.number((feltAt - run.requestedAt).inMilliseconds, digits: 1)
            let worst = run.recording.map(\.lateness).max() ?? .zero
            context.console.line("\(run.recording.count) commands, felt at +\(felt) ms, worst lateness \(JSONLine.number(worst.inMicroseconds, digits: 1)) µs")
        case let .notPlayed(reason):
            context.console.line("not played: \(reason)")
        }
        if let audio = run.audio { context.console.line(PlaySound.text(audio, requestedAt: run.requestedAt)) }
    }
}

extension PlaybackOutcome {
    /// Adds `outcome` and either `felt_ms` (after `requestedAt`) or `reason` to a summary line.
    func addFields(to line: inout JSONLine, requestedAt: MonotonicInstant) {
        switch self {
        case let .scheduled(feltAt):
            line.add("outcome", "scheduled")
            line.add("felt_ms", (feltAt - requestedAt).inMilliseconds, digits: 3)
        case let .notPlayed(reason):
            line.add("outcome", "not-played")
            line.add("reason", reason.rawValue)
        }
    }
}
