import Glibc
import Haptics
import HapticsDevices
import HapticsPatterns
import Testing
import HapticsVirtualDevices
import HapticsTestSupport

extension EngineKernelTests {
@Suite struct PlayerLifecycle {
    static func isPlay(_ record: UInputForceFeedbackRecord) -> Bool {
        if case .play = record.event { return true }
        return false
    }

    static func endsSilent(_ sink: UInputForceFeedbackSink) -> Bool {
        guard let last = sink.records.last(where: { if case .play = $0.event { true } else if case .stop = $0.event { true } else { false } })
        else { return false }
        if case .stop = last.event { return true }
        return false
    }

    @Test func aDevicePluggedInWhileAPatternPlaysJoinsItPausesResumesAndStopsWithIt() throws {
        let first = try UInputForceFeedbackSink(.init(name: "haptics-test lifecycle first"))
        defer { first.close() }
        let engine = HapticEngine(outputs: [try HapticEngine.evdevOutput(path: first.eventNodePath)])
        try engine.start()
        defer { engine.stop() }
        let player = try engine.makePlayer(pattern: sustainedPattern())
        let completions = Recorder<PlayerCompletion>()
        player.completionHandler = { completions.append($0) }
        #expect(player.start().isScheduled)
        #expect(waitUntil { first.records.contains(where: Self.isPlay) })

        // Plugged in while the pattern plays: it joins without a new start.
        let second = try UInputForceFeedbackSink(.init(name: "haptics-test lifecycle second"))
        defer { second.close() }
        try engine.addOutput(try HapticEngine.evdevOutput(path: second.eventNodePath))
        #expect(waitUntil { second.records.contains(where: Self.isPlay) })
        #expect(player.isPlaying)
        #expect(player.position > .zero && player.position < .seconds(3))

        // Paused: both devices silent, the position kept.
        #expect(player.pause())
        #expect(waitUntil { Self.endsSilent(first) && Self.endsSilent(second) })
        #expect(player.isPaused)
        let paused = player.position
        usleep(100_000)
        #expect(player.position == paused)

        // Resumed: both play again from there; stopped: both silent, one completion.
        let seen = (first.records.count, second.records.count)
        #expect(player.resume())
        #expect(waitUntil {
            first.records.dropFirst(seen.0).contains(where: Self.isPlay) && second.records.dropFirst(seen.1).contains(where: Self.isPlay)
        })
        #expect(player.position >= paused)
        #expect(player.stop())
        #expect(waitUntil { Self.endsSilent(first) && Self.endsSilent(second) })
        #expect(waitUntil { completions.all == [.stopped] })
        usleep(100_000)
        #expect(completions.all == [.stopped])
    }
}
}
