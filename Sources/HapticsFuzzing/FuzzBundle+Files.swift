import Glibc

extension FuzzBundle {
    /// What ``write(into:patternName:)`` created, so that exactly that can be removed again.
    public struct WrittenFiles: Sendable {
        /// The folder the bundle was written into.
        public let folder: String
        /// The pattern file's path.
        public let patternPath: String
        /// Paths created, in creation order (folders before what is in them).
        fileprivate(set) var created: [(path: String, isFolder: Bool)] = []

        /// Removes everything the bundle created, last first; the folder itself stays.
        ///
        /// The corresponding C functions are `unlink` and `rmdir`.
        public func remove() {
            for (path, isFolder) in created.reversed() {
                _ = isFolder ? rmdir(path) : unlink(path)
            }
        }
    }

    /// Writes the pattern as `patternName` and every entry into `folder`, an existing empty folder.
    ///
    /// Entries are created from the bundle alone, never from what the folder holds: a folder on an
    /// entry's way is made only if no earlier entry took its name, and an entry whose name (or a
    /// folder on its way) an earlier entry took is left out. So a link never has anything written
    /// through it, and nothing is written outside `folder`. Files are written without `fsync`: they
    /// live for one input.
    ///
    /// The corresponding C functions are `mkdir`, `open`, `write`, `close` and `symlink`.
    public func write(into folder: String, patternName: String = "pattern.ahap") -> WrittenFiles {
        var written = WrittenFiles(folder: folder, patternPath: folder + "/" + patternName)
        var taken: [String: Bool] = [patternName: false]   // name → is a folder
        if Self.writeFile(pattern, to: written.patternPath) { written.created.append((written.patternPath, false)) }
        entries: for entry in entries {
            let components = entry.name.split(separator: "/").map(String.init)
            var prefix = ""
            for component in components.dropLast() {
                prefix += (prefix.isEmpty ? "" : "/") + component
                switch taken[prefix] {
                case true?: continue
                case false?: continue entries
                case nil:
                    guard mkdir(folder + "/" + prefix, 0o700) == 0 else { continue entries }
                    taken[prefix] = true
                    written.created.append((folder + "/" + prefix, true))
                }
            }
            guard taken[entry.name] == nil else { continue }
            let path = folder + "/" + entry.name
            let made: Bool
            switch entry.content {
            case let .file(bytes): made = Self.writeFile(bytes, to: path)
            case let .symbolicLink(target): made = symlink(target, path) == 0
            }
            if made {
                taken[entry.name] = false
                written.created.append((path, false))
            }
        }
        return written
    }

    /// Creates the file at `path` (never through a link, never over an existing file) holding `bytes`.
    static func writeFile(_ bytes: [UInt8], to path: String) -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        var done = 0
        let complete = bytes.withUnsafeBytes { buffer -> Bool in
            while done < buffer.count {
                let count = Glibc.write(descriptor, buffer.baseAddress! + done, buffer.count - done)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                done += count
            }
            return true
        }
        _ = close(descriptor)
        if !complete { _ = unlink(path) }
        return complete
    }
}
