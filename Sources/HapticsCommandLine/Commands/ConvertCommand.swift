import Glibc
import HapticsMeasurement
import HapticsPatterns
import HapticsSoundAnalysis
import HapticsSystem

/// `haptics convert`: reads a pattern file in any format it recognises by content, or a sound
/// (`.wav`) it analyses into haptics, and writes it as AHAP or as a `.haptic` clip, the output
/// format chosen by the output file's extension.
struct ConvertCommand: Command {
    static let name = "convert"
    static let abstract = "Convert a pattern between AHAP and .haptic clips, a feedbackd theme's event or a sound to either."
    static let usage = [
        "convert <in> -o <out.ahap|out.haptic> [--json]",
        "convert <sound.wav> -o <out.ahap|out.haptic> [--actuator rumble|voice-coil] [--sensitivity <0…1>] [--gain <dB>] [--band <low>-<high>] [--min-event <s>] [--min-gap <s>] [--tolerance <x>] [--no-sound] [--json]",
        "convert <theme.json> --event <name> [--level full|quiet|silent] [--theme-path <folder>]... -o <out.ahap|out.haptic> [--json]",
    ]
    static let options = [
        HelpRow("<in>", "An AHAP file, a .haptic clip or a feedbackd theme, whatever its name; or a sound, named .wav."),
        OutputFile.help([(.ahap, "AHAP"), (.haptic, "a clip")]),
        HelpRow("--event <name>", "The event of a feedbackd theme to convert (themes only): its vibrations at the level, felt together."),
        HelpRow("--level <level>", "The feedbackd profile for --event: full (default), quiet or silent; a level plays its section and the quieter ones."),
        ThemeSearchPath.help,
    ] + SoundOptions.help + [
        HelpRow("--no-sound", "For a .wav input: leave the sound out of the AHAP pattern (by default an AudioCustom event plays it, so it must be in the pattern's folder or below)."),
        HelpRow("--json", "One JSON object saying what was written."),
    ]
    static let discussion = """
        Warnings about the input go to standard error as file:line:column: path: message, and so
        does what the output format cannot hold (a .haptic clip has no audio events). A clip holds
        one envelope: the events of an AHAP file are flattened into it as they are felt, and come
        back as events when the clip is read again (docs/reference/formats.md has the mapping).
        A sound becomes transients at its hits and a continuous event whose intensity and sharpness
        curves follow its loudness and brightness; silence becomes nothing (docs/guides/haptics-from-sound.md).
        """

    var input: String
    var output: OutputFile
    var json = false
    var event: String?
    var level = FeedbackdLevel.full
    var themeFolders: [String] = []
    var sound = SoundOptions()
    var includeSound = true

    init(arguments: [String]) throws(CommandLineError) {
        var cursor = ArgumentCursor(arguments)
        var input: String?
        var outputs = OutputFiles()
        while let item = cursor.next() {
            if try outputs.parse(item, &cursor, accepted: [.ahap, .haptic]) { continue }
            if try sound.parse(item, &cursor) { continue }
            switch item {
            case .option("json", nil): json = true
            case .option("no-sound", nil): includeSound = false
            case let .option("event", inline): event = try cursor.value(for: "event", inline: inline)
            case let .option("theme-path", inline): themeFolders.append(try cursor.value(for: "theme-path", inline: inline))
            case let .option("level", inline):
                let value = try cursor.value(for: "level", inline: inline)
                guard let parsed = FeedbackdLevel(rawValue: value) else {
                    throw .usage("--level must be full, quiet or silent, not '\(PrintableText.escaped(value))'")
                }
                level = parsed
            case let .option(name, _): throw .usage("unknown option --\(name)")
            case let .shortOption(letter): throw .usage("unknown option -\(letter)")
            case let .positional(value):
                guard input == nil else { throw .usage("unexpected argument '\(value)'") }
                input = value
            }
        }
        guard let input else { throw .usage("missing the file to convert") }
        guard let output = outputs.files.first else { throw .usage("missing -o <out.ahap|out.haptic>") }
        self.input = input
        self.output = output
        if SoundOptions.isSound(input) {
            if event != nil { throw .usage("--event picks an event of a feedbackd theme; \(PrintableText.escaped(input)) is a sound") }
        } else {
            try sound.refuseUnlessSound(input)
            if !includeSound { throw .usage("--no-sound applies to a sound (a .wav file); \(PrintableText.escaped(input)) is not one") }
        }
    }

    func run(_ context: CommandContext) throws(CommandLineError) -> Int32 {
        if SoundOptions.isSound(input) { return try convertSound(context) }
        let bytes: [UInt8]
        do {
            bytes = try FileDescriptor.readContents(ofFile: input, maximumSize: PatternLimits.default.maximumFileSize)
        } catch {
            throw .failure("\(PrintableText.escaped(input)): \(error.description)")
        }
        let format = PatternFormat.recognize(bytes)
        let decoded = try decode(bytes, format: format, search: ThemeSearchPath(environment: context.environment, extra: themeFolders))
        for warning in decoded.warnings { context.console.errorLine(warning.description) }
        let outputFormat: PatternFormat = output.format == .haptic ? .hapticClip : .ahap
        let text: String
        switch outputFormat {
        case .hapticClip:
            let encoder = HapticClipEncoder()
            for omission in encoder.omissions(in: decoded.pattern) {
                context.console.errorLine("\(PrintableText.escaped(output.path)): warning: left out \(omission); a .haptic clip cannot hold it")
            }
            text = encoder.encode(decoded.pattern)
        case .ahap, .feedbackdTheme:
            text = AHAPEncoder().encode(decoded.pattern)
        }
        try output.write(text, context)
        let haptic = decoded.pattern.events.filter(\.kind.isHaptic).count
        if json {
            var line = JSONLine(record: "conversion")
            line.add("input", input)
            line.add("input_format", format.rawValue)
            line.add("output", output.path)
            line.add("output_format", outputFormat.rawValue)
            line.add("haptic_events", haptic)
            line.add("duration_s", decoded.pattern.duration, digits: 3)
            context.console.line(line.text)
            return ExitStatus.success
        }
        context.console.line(
            "\(PrintableText.escaped(input)) (\(format.displayName)) → \(PrintableText.escaped(output.path)) (\(outputFormat.displayName)): "
                + "\(haptic) haptic event\(haptic == 1 ? "" : "s"), \(JSONLine.number(decoded.pattern.duration, digits: 3)) s")
        return ExitStatus.success
    }

    /// Analyses the sound and writes the haptics derived from it: in AHAP with the sound as an
    /// `AudioCustom` event (unless `--no-sound`), in a clip without it.
    private func convertSound(_ context: CommandContext) throws(CommandLineError) -> Int32 {
        let (samples, analysis) = try sound.analyze(input)
        let text: String
        let outputFormat: PatternFormat
        if output.format == .haptic {
            outputFormat = .hapticClip
            text = HapticClipEncoder().encode(analysis.pattern(waveformPath: nil, transients: .absolute))
        } else {
            outputFormat = .ahap
            let waveformPath = includeSound ? try Self.waveformPath(of: input, from: output.path) : nil
            text = AHAPEncoder().encode(analysis.pattern(waveformPath: waveformPath))
        }
        try output.write(text, context)
        let transients = analysis.transients.count
        let continuous = analysis.segments.count
        if json {
            var line = JSONLine(record: "conversion")
            line.add("input", input)
            line.add("input_format", "wav")
            line.add("sample_rate", samples.sampleRate)
            line.add("channels", samples.channelCount)
            line.add("output", output.path)
            line.add("output_format", outputFormat.rawValue)
            line.add("transients", transients)
            line.add("continuous_events", continuous)
            line.add("duration_s", analysis.duration, digits: 3)
            context.console.line(line.text)
            return ExitStatus.success
        }
        context.console.line(
            "\(PrintableText.escaped(input)) (sound, \(samples.sampleRate) Hz, \(samples.channelCount == 1 ? "mono" : "stereo")) → "
                + "\(PrintableText.escaped(output.path)) (\(outputFormat.displayName)): "
                + "\(transients) transient\(transients == 1 ? "" : "s"), \(continuous) continuous event\(continuous == 1 ? "" : "s"), "
                + "\(JSONLine.number(analysis.duration, digits: 3)) s")
        return ExitStatus.success
    }

    /// The sound's path as the pattern's `EventWaveformPath`: relative to the pattern's folder, which
    /// must hold it (the player reads waveforms only from there and below).
    static func waveformPath(of sound: String, from pattern: String) throws(CommandLineError) -> String {
        func split(_ path: String) -> (folder: String, name: String) {
            guard let slash = path.lastIndex(of: "/") else { return (".", path) }
            return (slash == path.startIndex ? "/" : String(path[..<slash]), String(path[path.index(after: slash)...]))
        }
        let (soundFolder, name) = split(sound)
        let patternFolder = split(pattern).folder
        if soundFolder == patternFolder { return name }
        func resolved(_ folder: String) -> String? {
            guard let real = realpath(folder, nil) else { return nil }
            defer { free(real) }
            return String(cString: real)
        }
        if let real = resolved(soundFolder), let base = resolved(patternFolder) {
            if real == base { return name }
            let prefix = base == "/" ? "/" : base + "/"
            if real.hasPrefix(prefix) { return String(real.dropFirst(prefix.count)) + "/" + name }
        }
        throw .failure("\(PrintableText.escaped(sound)) is not in \(PrintableText.escaped(patternFolder)), the folder of "
            + "\(PrintableText.escaped(pattern)), or below it, where the pattern's sound event can read it: "
            + "write the pattern next to the sound, or give --no-sound")
    }

    /// The pattern the input holds; a theme needs `--event`, other formats refuse it.
    private func decode(_ bytes: [UInt8], format: PatternFormat, search: ThemeSearchPath) throws(CommandLineError) -> DecodedPattern {
        switch format {
        case .feedbackdTheme:
            guard let event else {
                throw .usage("\(PrintableText.escaped(input)) is a feedbackd theme: give --event <name> to convert one of its events")
            }
            // The theme's parents are found along the search path, as `play --theme` does.
            let theme = try search.theme(input)
            do {
                return DecodedPattern(pattern: try theme.pattern(for: event, level: level), warnings: theme.warnings, format: .feedbackdTheme)
            } catch {
                throw .failure(error.description)
            }
        case .ahap, .hapticClip:
            if event != nil {
                throw .usage("--event picks an event of a feedbackd theme; \(PrintableText.escaped(input)) is \(format == .ahap ? "an" : "a") \(format.displayName)")
            }
            do {
                return try decodePattern(bytes, fileName: input)
            } catch {
                throw .failure(error.description)
            }
        }
    }
}
