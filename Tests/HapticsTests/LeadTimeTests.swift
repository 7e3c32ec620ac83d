import HapticsDevices
import HapticsRendering
import HapticsSystem
import Testing
@testable import Haptics

@Suite("The onset of a play on all devices follows the devices there are")
struct LeadTimeTests {
    @Test("the longest lead time is found again after a device is added, switched off, on, and removed")
    func theLongestLeadFollowsTheRoster() throws {
        var fast = DeviceProfile.genericRumble
        fast.name = "fast"
        fast.riseTime = .milliseconds(10)
        var slow = DeviceProfile.genericRumble
        slow.name = "slow"
        slow.riseTime = .milliseconds(40)
        let fixture = EngineFixture(profiles: [fast])
        let origin = fixture.clock.now()
        func felt(_ milliseconds: Int64) -> PlaybackOutcome { .scheduled(feltAt: origin.advanced(by: .milliseconds(milliseconds))) }
        // Twice each: the second play finds what the first one found.
        #expect(fixture.engine.play(.selection) == felt(10))
        #expect(fixture.engine.play(.selection) == felt(10))
        let pad = try fixture.engine.addOutput(.init(device: SimulatedDevice(profile: slow), profile: slow, name: "slow pad",
                                                     path: "/dev/input/event3"))
        #expect(fixture.engine.play(.selection) == felt(40))
        #expect(fixture.engine.play(.selection) == felt(40))
        fixture.engine.setEnabled(false, for: pad)
        #expect(fixture.engine.play(.selection) == felt(10))
        fixture.engine.setEnabled(true, for: pad)
        #expect(fixture.engine.play(.selection) == felt(40))
        #expect(fixture.engine.removeOutput(path: "/dev/input/event3"))
        #expect(fixture.engine.play(.selection) == felt(10))
        #expect(fixture.engine.play(.selection) == felt(10))
    }
}
