import HapticsAudio
import HapticsSoundAnalysis
import HapticsSystem

/// The options that tune how a sound (a `.wav` input) becomes haptics, shared by `convert`,
/// `plot` and `play`: parsed in one place, so all three take and refuse the same.
struct SoundOptions {
    /// The analysis options, defaults for the actuator unless given.
    var analysis = SoundAnalysisOptions()
    /// The options given, in order, to refuse them for an input that is not a sound.
    private(set) var given: [String] = []
    private var band: ClosedRange<Double>?

    static let help = [
        HelpRow("--actuator <kind>", "For a .wav input: the actuator the haptics are for, rumble (default: motors) or voice-coil; it sets the default --band."),
        HelpRow("--sensitivity <0…1>", "For a .wav input: how readily a rise in the sound is a transient; 0 keeps only clear hits, 1 takes small ones (default 0.5)."),
        HelpRow("--gain <dB>", "For a .wav input: decibels added to the sound's level; intensity maps −48…0 dBFS to 0…1 (default 0; negative leaves headroom)."),
        HelpRow("--band <low>-<high>", "For a .wav input: the frequencies in Hz mapped onto sharpness 0…1 (default 50-5000 for rumble, 40-1000 for voice-coil)."),
        HelpRow("--min-event <s>", "For a .wav input: the shortest continuous event, and the shortest gap that splits one (default 0.05)."),
        HelpRow("--min-gap <s>", "For a .wav input: the shortest time between two transients (default 0.05)."),
        HelpRow("--tolerance <x>", "For a .wav input: how far the simplified curves may stray from the measured ones (default 0.04)."),
    ]

    /// Whether `path` names a sound: it ends in `.wav` or `.wave` (any case).
    static func isSound(_ path: String) -> Bool {
        let lowered = path.lowercased()
        return lowered.hasSuffix(".wav") || lowered.hasSuffix(".wave")
    }

    /// Consumes one of the options if `item` is one; returns whether it was.
    mutating func parse(_ item: ArgumentCursor.Item, _ cursor: inout ArgumentCursor) throws(CommandLineError) -> Bool {
        guard case let .option(name, inline) = item else { return false }
        switch name {
        case "actuator":
            let value = try cursor.value(for: name, inline: inline)
            guard let kind = SoundAnalysisOptions.Actuator(rawValue: value) else {
                throw .usage("--actuator must be rumble or voice-coil, not '\(PrintableText.escaped(value))'")
            }
            analysis = SoundAnalysisOptions(actuator: kind).with(analysis)
        case "sensitivity": analysis.sensitivity = try number(name, &cursor, inline)
        case "gain": analysis.gain = try number(name, &cursor, inline)
        case "min-event": analysis.minimumEventLength = try number(name, &cursor, inline)
        case "min-gap": analysis.minimumOnsetGap = try number(name, &cursor, inline)
        case "tolerance": analysis.curveTolerance = try number(name, &cursor, inline)
        case "band":
            let value = try cursor.value(for: name, inline: inline)
            let parts = value.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 2, let low = Double(parts[0]), let high = Double(parts[1]), low.isFinite, high.isFinite,
                  low <= high else {
                throw .usage("--band must be <low>-<high> in Hz with low ≤ high, such as 40-1000, not '\(PrintableText.escaped(value))'")
            }
            band = low...high
        default:
            return false
        }
        given.append("--" + name)
        if let band { analysis.band = band }
        return true
    }

    /// Refuses the options when the input is not a sound.
    func refuseUnlessSound(_ input: String) throws(CommandLineError) {
        guard let first = given.first, !Self.isSound(input) else { return }
        throw .usage("\(first) applies to a sound (a .wav file); \(PrintableText.escaped(input)) is not one")
    }

    /// Reads and analyses the sound at `path`: a usage error for an option out of range, a failure
    /// naming the file (and where in it) for a file that cannot be read or analysed.
    func analyze(_ path: String) throws(CommandLineError) -> (samples: WAVSamples, analysis: SoundAnalysis) {
        let analyzer: SoundAnalyzer
        do {
            analyzer = try SoundAnalyzer(options: analysis)
        } catch {
            throw .usage(Self.optionMessage(error.problem))
        }
        do {
            return try analyzer.analyze(contentsOf: path)
        } catch {
            throw .failure(error.description)
        }
    }

    /// An option out of range, named as it is written on the command line.
    static func optionMessage(_ problem: SoundAnalysisError.Problem) -> String {
        let flags = ["sensitivity": "--sensitivity", "gain": "--gain", "band lower bound": "--band (low)",
                     "band upper bound": "--band (high)", "minimum event length": "--min-event",
                     "minimum onset gap": "--min-gap", "curve tolerance": "--tolerance"]
        guard case let .invalidOption(name, value, range) = problem, let flag = flags[name] else {
            return problem.description
        }
        return SoundAnalysisError.Problem.invalidOption(name: flag, value: value, range: range).description
    }

    private func number(_ name: String, _ cursor: inout ArgumentCursor, _ inline: String?) throws(CommandLineError) -> Double {
        let value = try cursor.value(for: name, inline: inline)
        guard let number = Double(value), number.isFinite else {
            throw .usage("--\(name) needs a number, not '\(PrintableText.escaped(value))'")
        }
        return number
    }
}

extension SoundAnalysisOptions {
    /// These defaults (an actuator's) with every option but the band taken from `other`.
    fileprivate func with(_ other: SoundAnalysisOptions) -> SoundAnalysisOptions {
        var options = other
        options.band = band
        return options
    }
}
