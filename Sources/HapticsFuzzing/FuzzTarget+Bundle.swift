import Glibc
import HapticsAudio
import HapticsPatterns
import HapticsRendering

extension FuzzTarget {
    /// A whole pattern as the engine loads one from a file: the input is a ``FuzzBundle`` — the
    /// pattern and the WAV files and symbolic links beside it — written into a folder, then loaded
    /// the way `HapticEngine.makePlayer(contentsOf:)` does without devices: `AudioPatternLoader`
    /// (decoding, confinement to the folder, WAVs read and converted to 48 kHz), the haptics rendered
    /// for every built-in device profile, the sound rendered to voices.
    ///
    /// Beyond not crashing: no waveform outside the pattern's folder is read (a sentinel WAV lies
    /// just outside it, where a link or a `..` would reach), and every program is what `Program`
    /// promises — time-ordered commands ending in `.stop` at its duration.
    public static let bundle = FuzzTarget(
        name: "bundle",
        summary: "pattern file + WAVs + links in a folder, loaded and rendered as makePlayer(contentsOf:) does",
        seedSources: [
            .composed(folder: "Tests/FuzzSeeds/bundle", suffix: ".ahap", compose: composeBundle),
            .files(folder: "Tests/FuzzSeeds/bundle", suffix: ".bundle"),
            .composed(folder: "Patterns", suffix: ".ahap", compose: composeBundle),
        ],
        body: { input, workspace in loadBundle(input, workspace: workspace) })

    /// Where in the workspace the bundle is written: the pattern's folder.
    static let bundleFolderName = "pattern"
    /// The sentinel beside the pattern's folder, which no pattern may read.
    static let sentinelName = "outside.wav"

    /// Writes `input` as a bundle into the workspace, loads and renders it, and removes it again.
    static func loadBundle(_ input: [UInt8], workspace: String) {
        let sentinel = workspace + "/" + sentinelName
        let folder = workspace + "/" + bundleFolderName
        guard FuzzBundle.writeFile(sentinelWAV, to: sentinel), mkdir(folder, 0o700) == 0 else {
            preconditionFailure("cannot prepare the workspace \(workspace): it must exist and be empty")
        }
        let written = FuzzBundle(splitting: input).write(into: folder)
        defer {
            written.remove()
            _ = rmdir(folder)
            _ = unlink(sentinel)
        }

        let audio: AudioPattern
        do {
            audio = try AudioPatternLoader(outputRate: outputRate).load(contentsOf: written.patternPath)
        } catch {
            _ = error.description
            return
        }
        precondition(!audio.clips.values.contains(sentinelClip),
                     "a waveform outside the pattern's folder was read (\(workspace)/\(sentinelName))")
        for profile in DeviceProfile.builtins {
            checkProgram(Renderer(profile: profile).render(audio.pattern))
        }
        let voices = AudioRenderer(sampleRate: outputRate).voices(for: audio)
        precondition(voices.count == audio.pattern.events.count(where: { !$0.kind.isHaptic }), "a voice per audio event")
    }

    /// Traps unless `program` is what `Program` promises.
    static func checkProgram(_ program: Program) {
        let name = program.profileName
        guard let last = program.commands.last else { preconditionFailure("\(name): a program without commands") }
        precondition(last.command == .stop, "\(name): the last command is \(last.command), not .stop")
        precondition(program.durationNanoseconds == last.offsetNanoseconds,
                     "\(name): duration \(program.durationNanoseconds) ns, the final stop at \(last.offsetNanoseconds) ns")
        var previous = Int64.min
        for command in program.commands {
            precondition(command.offsetNanoseconds >= previous, "\(name): a command at \(command.offsetNanoseconds) ns after one at \(previous) ns")
            precondition((0...1).contains(command.intensity) && (0...1).contains(command.sharpness),
                         "\(name): intensity \(command.intensity), sharpness \(command.sharpness)")
            previous = command.offsetNanoseconds
        }
    }

    /// A seed: the pattern file `file` with every waveform it names that exists, by file name, in
    /// `Patterns/` or `Tests/FuzzSeeds/wav/`, under the path it is named by.
    @Sendable static func composeBundle(repository: String, file: FuzzInput) -> [UInt8] {
        var bundle = FuzzBundle(pattern: file.bytes)
        guard let decoded = try? AHAPDecoder().decode(file.bytes, fileName: file.name) else { return bundle.bytes }
        let sounds = FuzzInput.files(in: "Patterns", repository: repository, suffix: ".wav")
            + FuzzInput.files(in: "Tests/FuzzSeeds/wav", repository: repository)
        var named: Set<String> = []
        for event in decoded.pattern.events where event.kind == .audioCustom {
            guard let path = event.waveformPath, named.insert(path).inserted,
                  let fileName = path.split(separator: "/").last,
                  let sound = sounds.first(where: { $0.name.hasSuffix("/" + fileName) })
            else { continue }
            bundle.entries.append(FuzzBundle.Entry(name: path, content: .file(sound.bytes)))
        }
        return bundle.bytes
    }

    /// The sentinel's bytes: 101 frames of 48 kHz 16-bit mono noise, which no fuzzed input holds by
    /// chance, so a clip equal to ``sentinelClip`` was read from the sentinel.
    static let sentinelWAV: [UInt8] = {
        var state: UInt32 = 0x4841_5054
        var data: [UInt8] = []
        for _ in 0..<101 {
            state = state &* 1_664_525 &+ 1_013_904_223
            data += [UInt8(truncatingIfNeeded: state >> 16), UInt8(truncatingIfNeeded: state >> 24)]
        }
        func le(_ value: Int, _ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        return Array("RIFF".utf8) + le(36 + data.count, 4) + Array("WAVEfmt ".utf8) + le(16, 4)
            + le(1, 2) + le(1, 2) + le(outputRate, 4) + le(2 * outputRate, 4) + le(2, 2) + le(16, 2)
            + Array("data".utf8) + le(data.count, 4) + data
    }()

    /// The sentinel as the loader would make it into a clip.
    static let sentinelClip: AudioClip = {
        guard let samples = try? WAVReader.decode(sentinelWAV) else { preconditionFailure("the sentinel is a WAV file") }
        return AudioClip(samples, outputRate: outputRate)
    }()
}
