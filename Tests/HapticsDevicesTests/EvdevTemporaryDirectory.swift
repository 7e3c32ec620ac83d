import Glibc
import HapticsDevices
import HapticsSystem

/// A directory under the system's temporary directory, removed with its files on deinit.
final class TemporaryDirectory {
    let path: String

    init() throws {
        var template = Array("/tmp/haptics-evdev-tests.XXXXXX".utf8CString)
        guard let created = mkdtemp(&template) else { throw Errno(rawValue: errno) }
        path = String(cString: created)
    }

    func createFile(_ name: String) throws {
        let descriptor = Glibc.open(path + "/" + name, O_CREAT | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Errno(rawValue: errno) }
        Glibc.close(descriptor)
    }

    deinit {
        if let directory = opendir(path) {
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if name != "." && name != ".." { unlink(path + "/" + name) }
            }
            closedir(directory)
        }
        rmdir(path)
    }
}
