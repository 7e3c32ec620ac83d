import HapticsPatterns
import HapticsSystem
import HapticsTestSupport
import HapticsTriggers
import Synchronization
import Testing
@testable import HapticsVoiceCoils

/// The per-pad player on a plain file standing for the hidraw node.
@Suite("DualSense HD haptics")
struct DualSenseHDHapticsTests {
    @Test("over Bluetooth: a report clearing every valid flag first, then at the instant another and the pattern's 0x32 reports")
    func bluetooth() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write([UInt8](), to: "hidraw0")
        let path = folder.path + "/hidraw0"
        let haptics = try DualSenseHDHaptics(node: TriggerNode(path: path, transport: .bluetooth), soundCard: nil)
        #expect(haptics.transport == .bluetooth && haptics.soundCard == nil)
        let clear = DualSenseTriggerReport(transport: .bluetooth, left: nil, right: nil).bytes
        #expect(try FileDescriptor.readContents(ofFile: path, maximumSize: 1 << 16) == clear)
        #expect(clear[3...6] == [0, 0, 0, 0])

        // The second clearing report is the writer thread's, at the pattern's instant: none yet.
        try haptics.play(Pattern(events: [PatternEvent(kind: .hapticTransient, time: 0)]), at: .now + .milliseconds(300))
        #expect(try FileDescriptor.readContents(ofFile: path, maximumSize: 1 << 16) == clear)
        let deadline = MonotonicInstant.now + .seconds(5)
        // 3 cycles of 155 Hz at 3 kHz: 58 frames, 2 reports, after a second clearing report.
        while ((try? FileDescriptor.readContents(ofFile: path, maximumSize: 1 << 16))?.count ?? 0) < 2 * 78 + 2 * 142 && .now < deadline {
            SystemMonotonicClock.sleep(until: .now + .milliseconds(5))
        }
        haptics.close()
        let bytes = try FileDescriptor.readContents(ofFile: path, maximumSize: 1 << 16)
        #expect(bytes.count == 2 * 78 + 2 * 142)
        #expect(Array(bytes[78..<156]) == clear)
        #expect(bytes[156] == 0x32 && bytes[298] == 0x32)
    }

    @Test("with a count of rumble writes, a play clears the rumble bits only after a rumble")
    func clearsOnlyAfterARumble() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write([UInt8](), to: "hidraw0")
        let path = folder.path + "/hidraw0"
        let rumbles = Atomic<Int>(7)
        let haptics = try DualSenseHDHaptics(node: TriggerNode(path: path, transport: .bluetooth), soundCard: nil,
                                             rumbleWrites: { rumbles.load(ordering: .relaxed) })
        defer { haptics.close() }
        let clear = DualSenseTriggerReport(transport: .bluetooth, left: nil, right: nil).bytes
        func bytes(atLeast count: Int) throws -> [UInt8] {
            let deadline = MonotonicInstant.now + .seconds(5)
            while ((try? FileDescriptor.readContents(ofFile: path, maximumSize: 1 << 16))?.count ?? 0) < count && .now < deadline {
                SystemMonotonicClock.sleep(until: .now + .milliseconds(5))
            }
            return try FileDescriptor.readContents(ofFile: path, maximumSize: 1 << 16)
        }
        // Opened: one clearing report. A play with no rumble since: its two 0x32 reports only.
        let tick = Pattern(events: [PatternEvent(kind: .hapticTransient, time: 0)])
        try haptics.play(tick)
        let first = try bytes(atLeast: 78 + 2 * 142)
        #expect(first.count == 78 + 2 * 142 && Array(first[0..<78]) == clear && first[78] == 0x32 && first[220] == 0x32)
        // A rumble written since: the next play clears first.
        rumbles.add(1, ordering: .relaxed)
        try haptics.play(tick)
        let second = try bytes(atLeast: 2 * 78 + 4 * 142)
        #expect(second.count == 2 * 78 + 4 * 142)
        #expect(Array(second[362..<440]) == clear && second[440] == 0x32)
    }

    @Test("over USB a card is required, and one that cannot be opened says so")
    func usbRefusals() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write([UInt8](), to: "hidraw0")
        let node = TriggerNode(path: folder.path + "/hidraw0", transport: .usb)
        #expect(throws: HDHapticsError.soundCard(.noSoundCard(eventNode: node.path))) {
            try DualSenseHDHaptics(node: node, soundCard: nil)
        }
        #expect {
            try DualSenseHDHaptics(node: node, soundCard: VoiceCoilSoundCard(device: "hw:97,0", number: 97, id: nil))
        } throws: { error in
            guard case .stream(let sinkError) = error as? HDHapticsError else { return false }
            return sinkError.device == "hw:97,0" && sinkError.call == "snd_pcm_open"
        }
    }
}
