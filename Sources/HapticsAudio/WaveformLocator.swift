import HapticsSystem

/// Finds an `EventWaveformPath` inside the folder of its pattern file, and refuses any path that
/// would read outside it.
///
/// Two checks on the path as written, for a clear message before anything is looked up: it is
/// relative, and read as written (`a/../b` stays inside, `../b` does not) it never climbs above the
/// folder. Then the kernel resolves it once, from the folder's descriptor, and says where it
/// arrived; that must be inside the folder's real path, compared as bytes (see `ConfinedFolder`):
/// a symbolic link out of the folder, or into a sibling whose name only looks the same, is refused,
/// and the file that is read is the one that was checked.
struct WaveformLocator: ~Copyable {
    /// The pattern's folder, open.
    let folder: ConfinedFolder

    /// A locator for the folder holding `patternPath` (the current directory for a bare file name).
    init(patternPath: String) throws(AudioPatternError.Problem) {
        let folderPath: String
        if let slash = patternPath.lastIndex(of: "/") {
            folderPath = slash == patternPath.startIndex ? "/" : String(patternPath[..<slash])
        } else {
            folderPath = "."
        }
        do {
            folder = try ConfinedFolder(path: folderPath)
        } catch {
            throw .unreadable(reason: "the pattern's folder \(folderPath): \(error.errno.message)")
        }
    }

    /// The regular file `waveformPath` names, found inside the folder and not yet opened for reading.
    func locate(_ waveformPath: String) throws(AudioPatternError.Problem) -> ConfinedFile {
        guard !waveformPath.isEmpty else { throw .noWaveformPath }
        guard !waveformPath.hasPrefix("/") else { throw .absolutePath }
        var depth = 0
        for component in waveformPath.split(separator: "/", omittingEmptySubsequences: true) {
            switch component {
            case ".": continue
            case "..":
                depth -= 1
                if depth < 0 { throw .escapesFolder }
            default: depth += 1
            }
        }
        do {
            return try folder.locate(waveformPath)
        } catch {
            throw Self.problem(error)
        }
    }

    /// What a failed look-up or read means for the event.
    static func problem(_ error: FileReadError) -> AudioPatternError.Problem {
        switch error {
        case let .systemCall(failure) where failure.call == "openat"
            && (failure.errno == .noSuchFileOrDirectory || failure.errno == .notDirectory):
            return .missing
        case let .systemCall(failure) where failure.call == "openat" || failure.call == "open":
            return .unreadable(reason: failure.errno.message)
        case .notRegularFile: return .notRegularFile
        case let .tooLarge(size, limit): return .tooLarge(size: size, limit: limit)
        case let .outsideFolder(path): return .symbolicLinkEscapes(resolved: String(decoding: path, as: UTF8.self))
        case .systemCall, .changedWhileReading: return .unreadable(reason: error.description)
        }
    }
}
