import CHapticsABI
import Glibc
import Haptics

// feedbackd themes (haptics.h: "feedbackd themes"). Loading reads files and playing renders and
// reads sounds: both control side.

/// The theme behind a `haptics_theme *`.
final class CTheme: CHandle, @unchecked Sendable {
    static let tag: UInt64 = 0x5448_4150_5449_4353  // "SCITPAHT"
    var tagWord: UInt64 = CTheme.tag
    let theme: FeedbackdTheme

    init(theme: FeedbackdTheme) {
        self.theme = theme
    }
}

@_cdecl("haptics_theme_new_from_file")
public func haptics_theme_new_from_file(_ path: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    guard let path, let out else {
        LastError.set("haptics_theme_new_from_file: the path or the theme pointer is NULL")
        return CResult.invalidArgument
    }
    do {
        out.pointee = CTheme(theme: try FeedbackdTheme(contentsOf: CText.string(path))).retainedPointer()
        return CResult.ok
    } catch {
        return CResult.failure(error)
    }
}

@_cdecl("haptics_theme_free")
public func haptics_theme_free(_ handle: OpaquePointer?) {
    guard let handle else { return }
    CTheme.release(handle)
}

@_cdecl("haptics_theme_play")
public func haptics_theme_play(
    _ engine: OpaquePointer?, _ theme: OpaquePointer?, _ event: UnsafePointer<CChar>?, _ level: Int32,
    _ soundFolder: UnsafePointer<CChar>?, _ onset: Int64, _ outcome: UnsafeMutablePointer<haptics_outcome>?
) -> Int32 {
    withEngine(engine) { engine in
        playThemeEvent(engine, on: .all, theme, event, level, soundFolder, onset, outcome)
    }
}

@_cdecl("haptics_device_theme_play")
public func haptics_device_theme_play(
    _ engine: OpaquePointer?, _ id: Int32, _ theme: OpaquePointer?, _ event: UnsafePointer<CChar>?, _ level: Int32,
    _ soundFolder: UnsafePointer<CChar>?, _ onset: Int64, _ outcome: UnsafeMutablePointer<haptics_outcome>?
) -> Int32 {
    withEngine(engine) { engine in
        guard id >= 0, let device = engine.device(HapticDevice.ID(rawValue: Int(id))) else {
            LastError.set("haptics_device_theme_play: no device with id \(id)")
            return CResult.code(ENODEV)
        }
        return playThemeEvent(engine, on: DeviceSelection(device), theme, event, level, soundFolder, onset, outcome)
    }
}

/// The one body of both plays: checks the theme, event and level, plays, reports.
private func playThemeEvent(
    _ engine: HapticEngine, on devices: DeviceSelection, _ themeHandle: OpaquePointer?, _ event: UnsafePointer<CChar>?,
    _ level: Int32, _ soundFolder: UnsafePointer<CChar>?, _ onset: Int64, _ outcome: UnsafeMutablePointer<haptics_outcome>?
) -> Int32 {
    guard let themeHandle, let event else {
        LastError.set("haptics_theme_play: the theme or the event is NULL")
        return CResult.invalidArgument
    }
    guard let theme = CTheme.from(themeHandle) else { return CResult.badHandle }
    let levels: [Int32: FeedbackdLevel] = [
        Int32(HAPTICS_THEME_LEVEL_SILENT.rawValue): .silent, Int32(HAPTICS_THEME_LEVEL_QUIET.rawValue): .quiet,
        Int32(HAPTICS_THEME_LEVEL_FULL.rawValue): .full,
    ]
    guard let themeLevel = levels[level] else {
        LastError.set("haptics_theme_play: \(level) is no haptics_theme_level (0 silent, 1 quiet, 2 full)")
        return CResult.invalidArgument
    }
    do {
        let playback = try engine.play(feedbackdEvent: CText.string(event), from: theme.theme, level: themeLevel,
                                       soundFolder: soundFolder.map(CText.string), on: devices, at: instant(onset))
        let code = COutcome.report(playback.outcome.haptics, audio: playback.outcome.audio, into: outcome)
        return playback.outcome.audio.isScheduled ? CResult.ok : code
    } catch {
        return CResult.failure(error)
    }
}
