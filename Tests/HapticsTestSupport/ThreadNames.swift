import Glibc

/// The names of this process's threads now (`/proc/self/task/*/comm`).
public func threadNames() -> [String] {
    guard let directory = opendir("/proc/self/task") else { return [] }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
        let task = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        guard let file = fopen("/proc/self/task/\(task)/comm", "r") else { continue }
        var buffer = [CChar](repeating: 0, count: 32)
        if fgets(&buffer, 32, file) != nil {
            let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            names.append(line.hasSuffix("\n") ? String(line.dropLast()) : line)
        }
        fclose(file)
    }
    return names
}
