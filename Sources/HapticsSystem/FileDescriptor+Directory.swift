import Glibc

extension FileDescriptor {
    /// The paths of the entries of `directory` named `prefix` followed by a decimal number
    /// (`event3`, `event12`), in numeric order; empty when the folder cannot be read.
    ///
    /// Event nodes are numbered in the order devices appeared: the devices module lists
    /// `/dev/input` with this, and so do the virtual devices looking for the node they created.
    ///
    /// The corresponding C functions are `opendir`, `readdir` and `closedir`.
    package static func numberedEntries(in directory: String, prefix: String) -> [String] {
        guard let handle = opendir(directory) else { return [] }
        defer { closedir(handle) }
        var numbers: [Int] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasPrefix(prefix), let number = Int(name.dropFirst(prefix.count)), number >= 0 {
                numbers.append(number)
            }
        }
        let separator = directory.hasSuffix("/") ? "" : "/"
        return numbers.sorted().map { "\(directory)\(separator)\(prefix)\($0)" }
    }
}
