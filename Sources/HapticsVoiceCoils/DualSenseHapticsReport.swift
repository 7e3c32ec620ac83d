import HapticsSystem
import HapticsTriggers

/// Bluetooth output report 0x32: 32 frames of the voice-coil actuators' waveform (signed 8-bit,
/// left then right, 3 kHz), about 10.7 ms of it, written to the pad's hidraw node.
///
/// The layout, as the public reverse-engineering notes describe it (the kernel's driver does not
/// send this report; there is no official description):
///
/// | bytes | content |
/// |---|---|
/// | 0 | report id 0x32 |
/// | 1 | sequence number in the high nibble (tag 0 in the low one) |
/// | 2–3 | sub-packet 0x11 header: `0x91` (id 0x11, bit 7 "sized"), length 7 |
/// | 4–10 | `FE 00 00 00 00 FF`, then a counter that goes up by one each report |
/// | 11–12 | sub-packet 0x12 header: `0x92`, length 64 |
/// | 13–76 | 32 frames: left, right, signed 8-bit |
/// | 77–137 | zero |
/// | 138–141 | CRC-32 of the seed byte 0xA2 and bytes 0–137, little-endian |
///
/// Where the notes disagree: one published sender leaves the sequence nibble at 0 in every report;
/// this encoder counts it as in report 0x31, which the pad accepts either way.
///
/// The report is laid out once; ``setFrames(_:number:)`` rewrites the frames, the counters and
/// the CRC in place, without allocating, once the report is uniquely held.
public struct DualSenseHapticsReport: Sendable, Hashable {
    /// The report, report id in byte 0.
    public private(set) var bytes: [UInt8]

    /// The report id.
    public static let reportID: UInt8 = 0x32
    /// The report's size with its id: 141 bytes after the id.
    public static let size = 142
    /// Frames per report.
    public static let framesPerReport = 32
    /// Where the frames start.
    public static let framesOffset = 13
    /// Where the sub-packet 0x11's counter is.
    public static let counterOffset = 10
    /// The seed byte of the CRC-32, the one of every Bluetooth output report.
    public static let crcSeed = DualSenseTriggerReport.bluetoothCRCSeed
    /// How long one report's frames last, in nanoseconds: 32 / 3000 s.
    public static let periodNanoseconds: Int64 = 10_666_667

    /// A report of silence, number 0.
    public init() {
        bytes = [UInt8](repeating: 0, count: Self.size)
        bytes[0] = Self.reportID
        bytes[2] = 0x91
        bytes[3] = 7
        bytes[4] = 0xFE
        bytes[9] = 0xFF
        bytes[11] = 0x92
        bytes[12] = UInt8(2 * Self.framesPerReport)
        seal()
    }

    /// A report carrying `frames` (64 bytes: left, right, …) as report `number`.
    public init(frames: UnsafeBufferPointer<Int8>, number: UInt32) {
        self.init()
        setFrames(frames, number: number)
    }

    /// Puts `frames` (64 bytes: 32 frames of left, right; fewer are padded with silence, more are
    /// an error of the caller's) in the report, numbers it `number` (the sequence nibble is its low
    /// four bits, the counter its low eight) and seals it with its CRC.
    public mutating func setFrames(_ frames: UnsafeBufferPointer<Int8>, number: UInt32) {
        precondition(frames.count <= 2 * Self.framesPerReport, "\(frames.count) samples do not fit one report")
        bytes.withUnsafeMutableBytes { report in
            report[1] = UInt8(truncatingIfNeeded: number & 0x0F) << 4
            report[Self.counterOffset] = UInt8(truncatingIfNeeded: number)
            for index in 0..<(2 * Self.framesPerReport) {
                report[Self.framesOffset + index] = index < frames.count ? UInt8(bitPattern: frames[index]) : 0
            }
        }
        seal()
    }

    /// The frames the report carries, left and right interleaved.
    public var frames: [Int8] {
        bytes[Self.framesOffset..<(Self.framesOffset + 2 * Self.framesPerReport)].map { Int8(bitPattern: $0) }
    }

    /// Writes the CRC-32 of the seed byte and everything before the last four bytes into them.
    private mutating func seal() {
        bytes.withUnsafeMutableBytes { CRC32.seal($0, seed: Self.crcSeed) }
    }
}
