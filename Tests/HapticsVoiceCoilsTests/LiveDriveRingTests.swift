import HapticsSystem
import Testing
@testable import HapticsVoiceCoils

/// The ring under the live inputs, on small rings whose frames are the instants' microseconds (the
/// rates chosen for the continuation window: 1 frame at 2 kHz, 8 at 16 kHz): what the track keeps,
/// what reads as silence, how blocks continue one another, what a flush drops.
@Suite struct LiveDriveRingTests {
    static func frame(_ nanoseconds: Int64) -> Int64 { nanoseconds / 1_000 }

    static func mixed(_ ring: _LiveDriveRing, from: Int64, count: Int) -> [Float] {
        var out = [Float](repeating: 0, count: count)
        out.withUnsafeMutableBufferPointer { ring.mix(into: $0.baseAddress!, from: from, count: count) }
        return out
    }

    static func push(_ ring: _LiveDriveRing, _ samples: [Float], atFrame frame: Int64) -> Bool {
        samples.withUnsafeBufferPointer { ring.push($0, at: MonotonicInstant(nanoseconds: frame * 1_000)) }
    }

    @Test func theTrackKeepsItsLastFramesAndGapsReadAsSilence() {
        let ring = _LiveDriveRing(sampleRate: 2_000, queueCapacity: 64, trackCapacity: 16)
        #expect(Self.push(ring, [1, 2, 3, 4, 5, 6, 7, 8], atFrame: 0))
        #expect(Self.push(ring, [9, 10, 11, 12], atFrame: 40))
        ring.drain(frameOf: Self.frame)
        // The track ends at 44 and holds 16 frames: 28..<40 silent, then the second block.
        #expect(Self.mixed(ring, from: 0, count: 50) == [Float](repeating: 0, count: 40) + [9, 10, 11, 12] + [Float](repeating: 0, count: 6))
        #expect(ring.nextUnmixedFrame(from: 0) == nil)
    }

    @Test func aBlockStartingNearTheLastOnesEndContinuesItExactly() {
        // 0.5 ms at 16 kHz is 8 frames.
        let ring = _LiveDriveRing(sampleRate: 16_000, queueCapacity: 64, trackCapacity: 64)
        #expect(ring.snapFrames == 8)
        #expect(Self.push(ring, [1, 2, 3, 4], atFrame: 10))
        #expect(Self.push(ring, [5, 6], atFrame: 21))
        #expect(Self.push(ring, [7], atFrame: 31))
        ring.drain(frameOf: Self.frame)
        // 21 is within 8 of 14: continues at 14. 31 is 15 past 16: placed where its instant says.
        #expect(ring.nextUnmixedFrame(from: 0) == 10)
        #expect(Self.mixed(ring, from: 10, count: 24) == [1, 2, 3, 4, 5, 6] + [Float](repeating: 0, count: 15) + [7, 0, 0])
        #expect(ring.nextUnmixedFrame(from: 0) == nil)
    }

    @Test func aFlushDropsWhatWasPushedBeforeItAndEmptiesTheTrack() {
        let ring = _LiveDriveRing(sampleRate: 2_000, queueCapacity: 64, trackCapacity: 16)
        #expect(Self.push(ring, [1, 2], atFrame: 0))
        ring.drain(frameOf: Self.frame)
        #expect(Self.push(ring, [3, 4], atFrame: 2))
        ring.requestFlush()
        #expect(Self.push(ring, [5, 6], atFrame: 4))
        ring.drain(frameOf: Self.frame)
        #expect(Self.mixed(ring, from: 0, count: 8) == [0, 0, 0, 0, 5, 6, 0, 0])
        // A block placed before the track's start: the frames between stay silent.
        #expect(Self.push(ring, [7], atFrame: 0))
        ring.drain(frameOf: Self.frame)
        #expect(Self.mixed(ring, from: 0, count: 8) == [7, 0, 0, 0, 5, 6, 0, 0])
        // Every sample was taken from the queue: its whole room is free again. The block at 0
        // came after frames up to 8 were mixed: late.
        #expect(Self.push(ring, [Float](repeating: 1, count: 64), atFrame: 8))
        #expect(ring.refused == 0 && ring.late == 1)
    }
}
