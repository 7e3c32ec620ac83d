import Foundation

/// A fresh temporary folder, removed by `remove()`.
struct SoundTestFolder {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("haptics-sound-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func write(_ bytes: [UInt8], to name: String) throws {
        let url = URL(fileURLWithPath: path + "/" + name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// 16-bit mono 48 kHz WAV bytes of `samples`.
func monoWAV(_ samples: [Int16]) -> [UInt8] {
    func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) } }
    let data = samples.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)] }
    var bytes = Array("RIFF".utf8) + le32(UInt32(36 + data.count)) + Array("WAVE".utf8)
    bytes += Array("fmt ".utf8) + le32(16) + le16(1) + le16(1) + le32(48_000) + le32(96_000) + le16(2) + le16(16)
    bytes += Array("data".utf8) + le32(UInt32(data.count)) + data
    return bytes
}
