import Glibc

extension FileDescriptor {
    /// Where the kernel says the file open on this descriptor is: its absolute path, every symbolic
    /// link already resolved, as bytes — the path of what *was* opened, not of whatever the name
    /// names now.
    ///
    /// Bytes, because a path is bytes to the kernel: two names that Swift's `String ==` finds equal
    /// (canonically equivalent, `"café"` with U+00E9 and with `e` + U+0301) are different folders
    /// on disk. A file whose name was removed since it was opened reads `… (deleted)`; a pipe or a
    /// socket reads `pipe:[…]` or `socket:[…]`, never starting with `/`. Needs `/proc` (`ENOENT`
    /// without it).
    ///
    /// The corresponding C function is `readlink`, on `/proc/self/fd/N`.
    package func path() throws(SystemCallError) -> [UInt8] {
        let link = "/proc/self/fd/\(rawValue)"
        var capacity = 256
        while true {
            var bytes = [UInt8](repeating: 0, count: capacity)
            let result = bytes.withUnsafeMutableBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { characters in
                    _SystemCall.perform("readlink", fileDescriptor: rawValue) {
                        readlink(link, characters.baseAddress!, characters.count)
                    }
                }
            }
            let count: Int
            switch result {
            case .success(let value): count = value
            case .failure(let errno): throw SystemCallError(call: "readlink", errno: errno)
            }
            // readlink truncates silently: a full buffer may be a cut path, so read again, larger.
            if count < capacity {
                bytes.removeSubrange(count...)
                return bytes
            }
            guard capacity < 1 << 16 else { throw SystemCallError(call: "readlink", errno: Errno(rawValue: ENAMETOOLONG)) }
            capacity *= 2
        }
    }
}
