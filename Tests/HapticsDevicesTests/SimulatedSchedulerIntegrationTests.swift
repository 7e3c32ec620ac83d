import HapticsRendering
import HapticsScheduler
import Testing
@testable import HapticsDevices
import HapticsSystem
import HapticsTestSupport

@Suite struct SimulatedSchedulerIntegrationTests {
    @Test func schedulerDrivesTheSimulatedDeviceAtTheProgramTimes() throws {
        let ms: Int64 = 1_000_000
        let clock = ManualClock(start: MonotonicInstant(nanoseconds: 1_000 * ms))
        let scheduler = Scheduler(clock: clock)
        let device = SimulatedDevice(profile: testRumbleProfile)
        let channel = try scheduler.addChannel(output: device, profile: testRumbleProfile)
        let program = Program(profileName: "test-rumble", commands: [
            TimedCommand(offsetNanoseconds: 0, intensity: 1, sharpness: 0, command: .rumble(strong: 0xFFFF, weak: 0)),
            TimedCommand(offsetNanoseconds: 20 * ms, intensity: 0, sharpness: 0, command: .stop),
        ], durationNanoseconds: 20_000_000, leadTimeNanoseconds: 0)
        let player = try scheduler.makePlayer(program: try scheduler.load(program), channel: channel)
        #expect(scheduler.start(player, at: MonotonicInstant(nanoseconds: 1_010 * ms)))
        _ = scheduler.process()
        clock.advance(to: MonotonicInstant(nanoseconds: 1_010 * ms))
        _ = scheduler.process()
        clock.advance(to: MonotonicInstant(nanoseconds: 1_031 * ms))
        _ = scheduler.process()
        #expect(device.recording() == [
            RecordedCommand(time: MonotonicInstant(nanoseconds: 1_010 * ms), deadline: MonotonicInstant(nanoseconds: 1_010 * ms),
                            channel: channel, command: .rumble(strong: 0xFFFF, weak: 0)),
            RecordedCommand(time: MonotonicInstant(nanoseconds: 1_031 * ms), deadline: MonotonicInstant(nanoseconds: 1_030 * ms),
                            channel: channel, command: .stop),
        ])
        let timeline = device.timeline()
        #expect(timeline.steps.map(\.time) == [.zero, .milliseconds(21)])
    }
}
