import Glibc

/// A folder whose files are read only once the kernel has confirmed they are inside it — how a
/// pattern's waveforms are kept to the pattern's folder.
///
/// Checking a name and then opening it (`realpath`, compare, `open`) leaves a window in which the
/// name, or any folder on its way, can be swapped for a link to somewhere else, a FIFO or a huge
/// file. Here a name is resolved once, by the kernel, into a descriptor, and every question after
/// that is asked of the descriptor:
///
/// 1. ``locate(_:)``: `openat(folder, name, O_PATH | O_CLOEXEC)` resolves the name from the folder's
///    own descriptor, following symbolic links, without opening the file: nothing is read, no
///    device driver's open runs, a FIFO waits for nobody;
/// 2. `readlink("/proc/self/fd/N")` (``FileDescriptor/path()``) says where the kernel found it; that
///    must be the folder's real path, a `/`, and more — compared as bytes, so a look-alike folder
///    whose name is only canonically equivalent (`café` as U+00E9 and as `e` + U+0301) is outside;
/// 3. `fstat` on the descriptor: a regular file;
/// 4. ``ConfinedFile/readContents(maximumSize:)`` opens *that* file for reading through
///    `/proc/self/fd/N` (`O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY`) — its descriptor, not its
///    name — and reads it bounded (`fstat` again on the open descriptor, at most `maximumSize` bytes).
///
/// A swap after step 1 changes nothing (the descriptor holds the file that was found); a swap before
/// it is what step 2 sees. Needs `/proc`: without it every file is refused (`cannot locate the
/// file`), never read unchecked.
package struct ConfinedFolder: ~Copyable {
    /// The folder, open `O_PATH | O_DIRECTORY`: names are resolved from it, never from its name again.
    package let descriptor: FileDescriptor
    /// Where the kernel says the folder is (``FileDescriptor/path()``), as bytes.
    package let realPath: [UInt8]

    /// Opens the folder at `path` (symbolic links followed: the folder is the one the caller named).
    ///
    /// The corresponding C functions are `open` and `readlink`.
    package init(path: String) throws(SystemCallError) {
        let folder = try FileDescriptor.open(path, .readOnly, options: [.closeOnExec, .directory, .pathOnly])
        do {
            realPath = try folder.path()
        } catch {
            try? folder.close()
            throw error
        }
        descriptor = folder
    }

    deinit { try? descriptor.close() }

    /// Whether `path` (bytes, as the kernel reports paths) is strictly inside the folder: the
    /// folder's real path, then a `/` (already the last byte when the folder is `/`), then at least
    /// one more byte. `…/sounds-old/x` is not inside `…/sounds`.
    package func contains(_ path: [UInt8]) -> Bool {
        let slash = UInt8(ascii: "/")
        let boundary = realPath.last == slash ? realPath.count : realPath.count + 1
        guard path.count > boundary, path.starts(with: realPath) else { return false }
        return realPath.last == slash || path[realPath.count] == slash
    }

    /// Finds the file `relativePath` names inside the folder (steps 1–3 above) without opening it
    /// for reading. Throws `.outsideFolder` when it is not inside, `.notRegularFile` when it is a
    /// folder, FIFO, device or socket, `.systemCall` (`openat`, `readlink`, `fstat`) otherwise:
    /// `ENOENT` when there is nothing by that name.
    ///
    /// The corresponding C functions are `openat`, `readlink` and `fstat`.
    package func locate(_ relativePath: String) throws(FileReadError) -> ConfinedFile {
        let found: FileDescriptor
        do {
            found = try FileDescriptor.open(relativePath, relativeTo: descriptor, .readOnly, options: [.closeOnExec, .pathOnly])
        } catch {
            throw .systemCall(error)
        }
        do throws(FileReadError) {
            let path: [UInt8]
            do {
                path = try found.path()
            } catch {
                throw .systemCall(error)
            }
            guard contains(path) else { throw .outsideFolder(path: path) }
            var status = stat()
            do {
                _ = try _SystemCall.run("fstat", fileDescriptor: found.rawValue) { Int(fstat(found.rawValue, &status)) }
            } catch {
                throw .systemCall(error)
            }
            guard (status.st_mode & S_IFMT) == S_IFREG else { throw .notRegularFile }
            return ConfinedFile(descriptor: found, path: path)
        } catch {
            try? found.close()
            throw error
        }
    }

    /// The bytes of the regular file `relativePath` names inside the folder, at most `maximumSize`:
    /// ``locate(_:)`` then ``ConfinedFile/readContents(maximumSize:)``.
    package func readContents(ofFile relativePath: String, maximumSize: Int) throws(FileReadError) -> [UInt8] {
        let file = try locate(relativePath)
        return try file.readContents(maximumSize: maximumSize)
    }
}
