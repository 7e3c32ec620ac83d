import HapticsDevices
import HapticsPatterns
import HapticsRendering
import HapticsScheduler
import HapticsViews
import HapticsSystem

/// `haptics plot`: renders a pattern for a device profile and draws it as SVG, without playing.
struct PlotCommand: Command {
    static let name = "plot"
    static let abstract = "Draw what a feedback or pattern file does on a device, as SVG."
    static let usage = ["plot <feedback|file.ahap> -o <out.svg> [--profile <name>]"]
    static let options = [
        HelpRow("<feedback|file.ahap>", "What to draw."),
        HelpRow("-o, --output <out.svg>", "Where to write the SVG."),
        HelpRow("--profile <name>", "Device profile to render for (default: simulated)."),
    ]

    var target: String
    var output: String
    var device = DeviceOptions()

    init(arguments: [String]) throws(CommandLineError) {
        var cursor = ArgumentCursor(arguments)
        var target: String?
        var output: String?
        while let item = cursor.next() {
            if try device.parse(item, &cursor) { continue }
            switch item {
            case let .option("output", inline): output = try cursor.value(for: "output", inline: inline)
            case .shortOption("o"): output = try cursor.value(for: "output", inline: nil)
            case let .option(name, _): throw .usage("unknown option --\(name)")
            case let .shortOption(letter): throw .usage("unknown option -\(letter)")
            case let .positional(value):
                guard target == nil else { throw .usage("unexpected argument '\(value)'") }
                target = value
            }
        }
        guard let target else { throw .usage("missing the feedback or file to plot") }
        guard let output else { throw .usage("missing -o <out.svg>") }
        self.target = target
        self.output = output
    }

    func run(_ context: CommandContext) throws(CommandLineError) -> Int32 {
        let target = try PlayTarget(argument: target)
        let program = Renderer(profile: device.profile).render(target.pattern)
        let timeline = MotorTimeline(program: program, actuator: device.profile.actuator)
        let markers = PlotMarker.markers(for: target.pattern, leadTime: program.leadTime)
        try PlayCommand.write(SVGPlot.render(timeline, title: "\(target.name) on \(device.profile.displayName)", events: markers), to: output)
        context.console.line("\(PrintableText.escaped(output)): \(program.commands.count) commands over \(JSONLine.number(program.duration.inMilliseconds, digits: 1)) ms")
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
