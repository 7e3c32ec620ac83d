import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import HapticsPatterns
import Testing
@testable import HapticsCommandLine
import HapticsTestSupport

/// `convert`, `plot` and `play` of a sound: the haptics derived from it.
@Suite struct SoundCommandTests {
    static let clickTimes = [0.25, 0.7, 1.1]

    /// 1.5 s at 48 kHz, 16-bit mono: a click (3 ms of 3 kHz, falling) at each of `clickTimes`.
    static let clicks: [UInt8] = {
        var samples = [Int16](repeating: 0, count: 72_000)
        for time in clickTimes {
            let start = Int(time * 48_000)
            for index in 0..<144 {
                let level = 0.8 * (1 - Double(index) / 144) * cos(2 * Double.pi * 3_000 * Double(index) / 48_000)
                samples[start + index] = Int16(level * 32_767)
            }
        }
        return pcm16WAV(samples)
    }()

    static func folderWithClicks() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.write(clicks, to: "clicks.wav")
        return folder
    }

    @Test func aSoundConvertsToAHAPWithItsSoundAndATransientPerClick() throws {
        let folder = try Self.folderWithClicks()
        defer { folder.remove() }
        let result = runTool("convert", folder.path + "/clicks.wav", "-o", folder.path + "/clicks.ahap")
        #expect(result.status == 0)
        let written = try String(contentsOfFile: folder.path + "/clicks.ahap", encoding: .utf8)
        #expect(result.error == "wrote \(folder.path)/clicks.ahap (\(written.utf8.count) bytes)\n")
        // Each click is louder than silence for less than the shortest continuous event (50 ms).
        #expect(result.output == "\(folder.path)/clicks.wav (sound, 48000 Hz, mono) → \(folder.path)/clicks.ahap (AHAP): "
            + "3 transients, 0 continuous events, 1.5 s\n")
        let pattern = try decodePattern(contentsOf: folder.path + "/clicks.ahap").pattern
        #expect(pattern.events.first == PatternEvent(kind: .audioCustom, time: 0, duration: 1.5, waveformPath: "clicks.wav",
                                                     parameters: EventParameters(audioVolume: 1)))
        let transients = pattern.events.filter { $0.kind == .hapticTransient }.map(\.time)
        #expect(transients.count == 3)
        for (found, expected) in zip(transients, Self.clickTimes) { #expect(abs(found - expected) <= 0.005, "\(found)") }
        // The pattern plays with its sound: `validate` loads the waveform.
        #expect(runTool("validate", folder.path + "/clicks.ahap").status == 0)
    }

    @Test func aSoundConvertsToAClipWithAnEmphasisPerClick() throws {
        let folder = try Self.folderWithClicks()
        defer { folder.remove() }
        let result = runTool("convert", folder.path + "/clicks.wav", "-o", folder.path + "/clicks.haptic", "--json",
                             "--actuator", "voice-coil", "--sensitivity=0.4", "--gain", "-3", "--min-gap", "0.1")
        #expect(result.status == 0)
        #expect(result.output == #"{"schema":1,"type":"conversion","input":"\#(folder.path)/clicks.wav","input_format":"wav","#
            + #""sample_rate":48000,"channels":1,"output":"\#(folder.path)/clicks.haptic","output_format":"haptic","#
            + #""transients":3,"continuous_events":0,"duration_s":1.5}"# + "\n")
        let text = try String(contentsOfFile: folder.path + "/clicks.haptic", encoding: .utf8)
        #expect(text.components(separatedBy: "\"emphasis\"").count - 1 == 3)
    }

    @Test func theSoundMustBeWhereThePatternCanReadIt() throws {
        let folder = try Self.folderWithClicks()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.path + "/sounds", withIntermediateDirectories: false)
        try folder.write(Self.clicks, to: "sounds/hit.wav")
        try FileManager.default.createDirectory(atPath: folder.path + "/patterns", withIntermediateDirectories: false)
        // Below the pattern's folder: named from there.
        #expect(runTool("convert", folder.path + "/sounds/hit.wav", "-o", folder.path + "/hit.ahap").status == 0)
        #expect(try decodePattern(contentsOf: folder.path + "/hit.ahap").pattern.events.first?.waveformPath == "sounds/hit.wav")
        // Beside it: refused, unless the sound is left out.
        let refused = runTool("convert", folder.path + "/sounds/hit.wav", "-o", folder.path + "/patterns/hit.ahap")
        #expect(refused.status == 1)
        #expect(refused.error == "haptics convert: \(folder.path)/sounds/hit.wav is not in \(folder.path)/patterns, the folder of "
            + "\(folder.path)/patterns/hit.ahap, or below it, where the pattern's sound event can read it: "
            + "write the pattern next to the sound, or give --no-sound\n")
        #expect(runTool("convert", folder.path + "/sounds/hit.wav", "-o", folder.path + "/patterns/hit.ahap", "--no-sound").status == 0)
        #expect(try decodePattern(contentsOf: folder.path + "/patterns/hit.ahap").pattern.events.allSatisfy(\.kind.isHaptic))
    }

    @Test func anADPCMSoundIsRefusedWithItsFileAndChunk() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(wavBytes(formatTag: 2, channels: 1, sampleRate: 22_050, bits: 4, data: [0, 0], blockAlign: 256), to: "adpcm.wav")
        let result = runTool("convert", folder.path + "/adpcm.wav", "-o", folder.path + "/out.ahap")
        #expect(result.status == 1)
        #expect(result.error == "haptics convert: \(folder.path)/adpcm.wav: WAV \"fmt \" chunk at byte 12: encoding not supported: "
            + "format tag 2, 4 bits per sample (expected 8-, 16- or 24-bit PCM, format tag 1, or 32-bit float, format tag 3)\n")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/out.ahap"))
    }

    @Test(arguments: [
        (["--sensitivity", "2"], "--sensitivity 2 is outside 0…1"),
        (["--sensitivity", "high"], "--sensitivity needs a number, not 'high'"),
        (["--gain=60"], "--gain 60 is outside -48…48"),
        (["--actuator", "erm"], "--actuator must be rumble or voice-coil, not 'erm'"),
        (["--band", "40"], "--band must be <low>-<high> in Hz with low ≤ high, such as 40-1000, not '40'"),
        (["--band", "900-100"], "--band must be <low>-<high> in Hz with low ≤ high, such as 40-1000, not '900-100'"),
        (["--band", "5-1000"], "--band (low) 5 is outside 10…20000"),
        (["--band", "300-400"], "band 300…400 Hz is narrower than an octave (the upper bound must be at least twice the lower)"),
        (["--min-gap", "0"], "--min-gap 0 is outside 0.02…10"),
        (["--min-event", "11"], "--min-event 11 is outside 0.02…10"),
        (["--tolerance", "1"], "--tolerance 1 is outside 0.001…0.5"),
    ])
    func badSoundOptionsAreUsageErrors(_ options: [String], _ message: String) throws {
        let folder = try Self.folderWithClicks()
        defer { folder.remove() }
        let result = runTool(["convert", folder.path + "/clicks.wav", "-o", folder.path + "/out.ahap"] + options)
        #expect(result.status == 64)
        #expect(result.error == "haptics convert: \(message). See 'haptics convert --help'.\n")
    }

    @Test func soundOptionsNeedASound() {
        let convert = runTool("convert", "in.ahap", "-o", "out.haptic", "--gain", "3")
        #expect(convert.status == 64)
        #expect(convert.error == "haptics convert: --gain applies to a sound (a .wav file); in.ahap is not one. See 'haptics convert --help'.\n")
        let noSound = runTool("convert", "in.ahap", "-o", "out.haptic", "--no-sound")
        #expect(noSound.error == "haptics convert: --no-sound applies to a sound (a .wav file); in.ahap is not one. See 'haptics convert --help'.\n")
        let plot = runTool("plot", "selection", "-o", "out.svg", "--actuator", "voice-coil")
        #expect(plot.error == "haptics plot: --actuator applies to a sound (a .wav file); selection is not one. See 'haptics plot --help'.\n")
        let play = runTool("play", "impact.heavy", "--sensitivity", "1")
        #expect(play.status == 64)
        #expect(play.error == "haptics play: --sensitivity applies to a sound (a .wav file); impact.heavy is not one. See 'haptics play --help'.\n")
    }

    @Test func aSoundPlotsWithItsHaptics() throws {
        let folder = try Self.folderWithClicks()
        defer { folder.remove() }
        let result = runTool("plot", folder.path + "/clicks.wav", "-o", folder.path + "/clicks.svg", "--json")
        #expect(result.status == 0)
        let svg = try String(contentsOfFile: folder.path + "/clicks.svg", encoding: .utf8)
        let parser = XMLParser(data: Data(svg.utf8))
        #expect(parser.parse(), "\(parser.parserError.map(String.init(describing:)) ?? "")")
        #expect(result.output == #"{"schema":1,"type":"plot","sound":"\#(folder.path)/clicks.wav","file":"\#(folder.path)/clicks.svg","#
            + #""transients":3,"continuous_events":0,"duration_ms":1500}"# + "\n")
        // One dot per transient, and the title names the sound.
        #expect(svg.components(separatedBy: "<circle ").count - 1 == 3)
        #expect(svg.contains(">\(folder.path)/clicks.wav</text>"))
        let profile = runTool("plot", folder.path + "/clicks.wav", "-o", folder.path + "/p.svg", "--profile", "dualsense")
        #expect(profile.error == "haptics plot: --profile draws a pattern on a device; a sound is drawn with the haptics derived from it "
            + "(use --actuator). See 'haptics plot --help'.\n")
    }

    @Test func aSoundPlaysItsHapticsWithTheSoundInStep() throws {
        let folder = try Self.folderWithClicks()
        defer { folder.remove() }
        let result = runTool("play", folder.path + "/clicks.wav", "--audio", folder.path + "/heard.wav", "--json")
        #expect(result.status == 0)
        let summary = try #require(result.output.split(separator: "\n").last.map(String.init))
        #expect(summary.contains(#""feedback":"\#(folder.path)/clicks.wav""#))
        #expect(summary.contains(#""outcome":"scheduled""#))
        #expect(summary.contains(#""audio":"scheduled""#))
        // The sound starts when the haptics are felt.
        let felt = try #require(summary.range(of: #""felt_ms":[0-9.]+"#, options: .regularExpression)).upperBound
        let heard = try #require(summary.range(of: #""heard_ms":[0-9.]+"#, options: .regularExpression))
        let feltValue = summary[summary.range(of: #""felt_ms":"#)!.upperBound..<felt]
        #expect(summary[heard].hasSuffix(":" + feltValue))
        #expect(FileManager.default.fileExists(atPath: folder.path + "/heard.wav"))
    }
}
