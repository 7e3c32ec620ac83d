import HapticsRendering
import HapticsScheduler
import Testing
@testable import HapticsDevices
import HapticsSystem

/// A dual-rumble profile built here so the tests do not depend on the built-in table.
let testRumbleProfile = DeviceProfile(
    name: "test-rumble",
    displayName: "Test rumble",
    actuator: .dualRumble,
    riseTime: .zero,
    minimumPulse: .zero,
    controlInterval: .milliseconds(10)
)

@Suite struct SimulatedDeviceTests {
    @Test func recordsEveryCommandInArrivalOrderWithItsTimes() {
        let device = SimulatedDevice(profile: testRumbleProfile, capacity: 8)
        device.perform(.rumble(strong: 0xFFFF, weak: 0x8000), channel: ChannelID(rawValue: 0), deadline: at(1_000), now: at(1_250))
        device.perform(.periodic(waveform: .sine, periodMilliseconds: 20, magnitude: -0x4000),
                       channel: ChannelID(rawValue: 3), deadline: at(5_000), now: at(4_900))
        device.perform(.stop, channel: ChannelID(rawValue: 0), deadline: at(9_000), now: at(9_000))

        #expect(device.recording() == [
            RecordedCommand(time: at(1_250), deadline: at(1_000), channel: ChannelID(rawValue: 0),
                            command: .rumble(strong: 0xFFFF, weak: 0x8000)),
            RecordedCommand(time: at(4_900), deadline: at(5_000), channel: ChannelID(rawValue: 3),
                            command: .periodic(waveform: .sine, periodMilliseconds: 20, magnitude: -0x4000)),
            RecordedCommand(time: at(9_000), deadline: at(9_000), channel: ChannelID(rawValue: 0), command: .stop),
        ])
        #expect(device.recording().map(\.lateness) == [.nanoseconds(250), .nanoseconds(-100), .zero])
        #expect(device.recordedCount == 3)
        #expect(device.droppedCount == 0)
        #expect(device.profile == testRumbleProfile)
    }

    @Test func recordsAreTrivialValuesSoStoringThemNeedsNoReferenceCounting() {
        #expect(_isPOD(RecordedCommand.self))
    }

    @Test func timelineUsesTheProfileMotorsAndTheRecordedArrivals() {
        let device = SimulatedDevice(profile: testRumbleProfile)
        device.perform(.rumble(strong: 0xFFFF, weak: 0), channel: ChannelID(rawValue: 0), deadline: at(900), now: at(1_000))
        device.perform(.stop, channel: ChannelID(rawValue: 0), deadline: at(2_000), now: at(2_500))
        let timeline = device.timeline(origin: at(500))
        #expect(timeline.motors == [.strong, .weak])
        #expect(timeline.steps.map(\.time) == [.zero, .nanoseconds(500), .nanoseconds(2_000)])
        #expect(timeline.steps.map { $0.levels.strong } == [0, 1, 0])
        #expect(timeline.end == .nanoseconds(2_000))
    }

    @Test func countsCommandsDroppedWhenFullAndKeepsTheFirstOnes() {
        let device = SimulatedDevice(profile: testRumbleProfile, capacity: 2)
        for index in 0..<5 {
            device.perform(.constant(level: Int16(index)), channel: ChannelID(rawValue: 1),
                           deadline: at(Int64(index) * 10), now: at(Int64(index) * 10 + 1))
        }
        #expect(device.recording().map(\.command) == [.constant(level: 0), .constant(level: 1)])
        #expect(device.recordedCount == 2)
        #expect(device.droppedCount == 3)
    }

    @Test func resetForgetsRecordingAndDropsThenRecordsAgainFromTheStart() {
        let device = SimulatedDevice(profile: testRumbleProfile, capacity: 1)
        device.perform(.stop, channel: ChannelID(rawValue: 0), deadline: at(1), now: at(2))
        device.perform(.stop, channel: ChannelID(rawValue: 0), deadline: at(3), now: at(4))
        device.reset()
        #expect(device.recording() == [])
        #expect(device.droppedCount == 0)

        device.perform(.rumble(strong: 1, weak: 2), channel: ChannelID(rawValue: 2), deadline: at(5), now: at(6))
        #expect(device.recording() == [
            RecordedCommand(time: at(6), deadline: at(5), channel: ChannelID(rawValue: 2), command: .rumble(strong: 1, weak: 2)),
        ])
    }

    @Test func readsAConsistentPrefixWhileAnotherThreadPerforms() async {
        let device = SimulatedDevice(profile: testRumbleProfile, capacity: 20_000)
        let producer = Task.detached {
            for index in 0..<20_000 {
                device.perform(.constant(level: Int16(truncatingIfNeeded: index)), channel: ChannelID(rawValue: 0),
                               deadline: at(Int64(index)), now: at(Int64(index)))
            }
        }
        // Every snapshot taken during the run is exactly the first `count` commands.
        for _ in 0..<50 {
            let snapshot = device.recording()
            #expect(snapshot.enumerated().allSatisfy { $0.element.time.nanoseconds == Int64($0.offset) })
        }
        await producer.value
        #expect(device.recordedCount == 20_000)
        #expect(device.recording().last?.command == .constant(level: Int16(truncatingIfNeeded: 19_999)))
    }
}

private func at(_ nanoseconds: Int64) -> MonotonicInstant { MonotonicInstant(nanoseconds: nanoseconds) }
