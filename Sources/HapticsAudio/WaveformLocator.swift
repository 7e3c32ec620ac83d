#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import HapticsSystem

/// Resolves an `EventWaveformPath` inside the folder of its pattern file, and refuses any path that
/// would read outside it.
///
/// Three checks, in order, before anything is read: the path is relative; read as written (`a/../b`
/// stays inside, `../b` does not) it never climbs above the folder; and with every symbolic link
/// followed (`realpath`) it still names a file inside the folder's own real path.
struct WaveformLocator {
    /// The real path of the pattern's folder.
    let folder: String

    /// A locator for the folder holding `patternPath` (the current directory for a bare file name).
    init(patternPath: String) throws(AudioPatternError.Problem) {
        let folderPath: String
        if let slash = patternPath.lastIndex(of: "/") {
            folderPath = slash == patternPath.startIndex ? "/" : String(patternPath[..<slash])
        } else {
            folderPath = "."
        }
        switch Self.realPath(folderPath) {
        case let .success(real): folder = real
        case let .failure(errno): throw .unreadable(reason: "the pattern's folder \(folderPath): \(errno.message)")
        }
    }

    /// The real path of the file `waveformPath` names, once it is known to be inside the folder.
    func resolve(_ waveformPath: String) throws(AudioPatternError.Problem) -> String {
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
        let candidate = (folder == "/" ? "" : folder) + "/" + waveformPath
        let resolved: String
        switch Self.realPath(candidate) {
        case let .success(path): resolved = path
        case let .failure(errno) where errno == .noSuchFileOrDirectory || errno == .notDirectory: throw .missing
        case let .failure(errno): throw .unreadable(reason: errno.message)
        }
        let prefix = folder == "/" ? "/" : folder + "/"
        guard resolved.hasPrefix(prefix) else { throw .symbolicLinkEscapes(resolved: resolved) }
        return resolved
    }

    /// `realpath(3)`: the path with every symbolic link, `.` and `..` resolved, or its errno.
    static func realPath(_ path: String) -> Result<String, Errno> {
        guard let pointer = realpath(path, nil) else { return .failure(.current) }
        defer { free(pointer) }
        return .success(String(cString: pointer))
    }
}
