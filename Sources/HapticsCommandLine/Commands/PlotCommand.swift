import HapticsMeasurement
import HapticsDevices
import HapticsPatterns
import HapticsRendering
import HapticsScheduler
import HapticsSoundAnalysis
import HapticsViews
import HapticsSystem

/// `haptics plot`: renders a pattern for a device profile and draws it as SVG, without playing; or
/// draws a sound with the haptics derived from it.
struct PlotCommand: Command {
    static let name = "plot"
    static let abstract = "Draw what a feedback or pattern file does on a device, or a sound and its haptics, as SVG."
    static let usage = [
        "plot <feedback|file.ahap> -o <out.svg> [--profile <name|file>] [--json]",
        "plot <sound.wav> -o <out.svg> [--actuator rumble|voice-coil] [--sensitivity <0…1>] [--gain <dB>] [--band <low>-<high>] [--min-event <s>] [--min-gap <s>] [--tolerance <x>] [--json]",
    ]
    static let options = [
        HelpRow("<feedback|file.ahap>", "What to draw."),
        HelpRow("<sound.wav>", "A sound: its waveform above, the haptics derived from it below (intensity and sharpness curves, transients)."),
        OutputFile.help([(.svg, "the plot")]),
        DeviceOptions.profileHelp,
    ] + SoundOptions.help + [
        HelpRow("--json", "One JSON object saying what was drawn."),
    ]

    var target: String
    var output: OutputFile
    var device = DeviceOptions()
    var json = false
    var sound = SoundOptions()
    var profileGiven = false

    init(arguments: [String]) throws(CommandLineError) {
        var cursor = ArgumentCursor(arguments)
        var target: String?
        var outputs = OutputFiles()
        while let item = cursor.next() {
            if try device.parseProfile(item, &cursor) {
                profileGiven = true
                continue
            }
            if try outputs.parse(item, &cursor, accepted: [.svg]) { continue }
            if try sound.parse(item, &cursor) { continue }
            switch item {
            case .option("json", nil): json = true
            case let .option(name, _): throw .usage("unknown option --\(name)")
            case let .shortOption(letter): throw .usage("unknown option -\(letter)")
            case let .positional(value):
                guard target == nil else { throw .usage("unexpected argument '\(value)'") }
                target = value
            }
        }
        guard let target else { throw .usage("missing the feedback or file to plot") }
        guard let output = outputs.files.first else { throw .usage("missing -o <out.svg>") }
        self.target = target
        self.output = output
        try sound.refuseUnlessSound(target)
        if profileGiven, SoundOptions.isSound(target) {
            throw .usage("--profile draws a pattern on a device; a sound is drawn with the haptics derived from it (use --actuator)")
        }
    }

    func run(_ context: CommandContext) throws(CommandLineError) -> Int32 {
        if SoundOptions.isSound(target) { return try plotSound(context) }
        let target = try PlayTarget(argument: target)
        let program = Renderer(profile: device.profile).render(target.pattern)
        let timeline = MotorTimeline(program: program, actuator: device.profile.actuator)
        let markers = PlotMarker.markers(for: target.pattern, leadTime: .nanoseconds(program.leadTimeNanoseconds))
        let duration = Duration.nanoseconds(program.durationNanoseconds)
        try output.write(SVGPlot.draw(timeline, title: "\(target.name) on \(device.profile.displayName)", events: markers), context)
        if json {
            var line = JSONLine(record: "plot")
            line.add("feedback", target.name)
            line.add("file", output.path)
            line.add("profile", device.profile.name)
            line.add("commands", program.commands.count)
            line.add("duration_ms", duration.inMilliseconds, digits: 1)
            context.console.line(line.text)
        } else {
            context.console.line("\(PrintableText.escaped(output.path)): \(program.commands.count) commands over \(JSONLine.number(duration.inMilliseconds, digits: 1)) ms")
        }
        return ExitStatus.success
    }
}

extension PlotCommand {
    /// Draws the sound and the haptics derived from it.
    private func plotSound(_ context: CommandContext) throws(CommandLineError) -> Int32 {
        let (samples, analysis) = try sound.analyze(target)
        try output.write(SoundPlot.draw(samples, analysis: analysis, title: target), context)
        if json {
            var line = JSONLine(record: "plot")
            line.add("sound", target)
            line.add("file", output.path)
            line.add("transients", analysis.transients.count)
            line.add("continuous_events", analysis.segments.count)
            line.add("duration_ms", analysis.duration * 1000, digits: 1)
            context.console.line(line.text)
        } else {
            context.console.line("\(PrintableText.escaped(output.path)): \(analysis.transients.count) transients and "
                + "\(analysis.segments.count) continuous events over \(JSONLine.number(analysis.duration * 1000, digits: 1)) ms")
        }
        return ExitStatus.success
    }
}

extension PlotMarker {
    /// One marker per haptic event, placed on a program's time axis (pattern time + lead time).
    static func markers(for pattern: Pattern, leadTime: Duration) -> [PlotMarker] {
        pattern.events.compactMap { event in
            let time = Duration(patternSeconds: event.time) + leadTime
            let intensity = event.parameters.resolvedIntensity
            let sharpness = event.parameters.resolvedSharpness
            switch event.kind {
            case .hapticTransient:
                return .transient(at: time, intensity: intensity, sharpness: sharpness)
            case .hapticContinuous:
                return .continuous(at: time, duration: Duration(patternSeconds: event.resolvedDuration),
                                   intensity: intensity, sharpness: sharpness)
            case .audioCustom, .audioContinuous:
                return nil
            }
        }
    }
}
