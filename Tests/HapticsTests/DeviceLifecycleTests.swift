import Glibc
@testable import HapticsDevices
import HapticsPatterns
import HapticsRendering
import HapticsScheduler
import Testing
@testable import Haptics
import HapticsSystem
import HapticsTestSupport

@Suite("Devices that come and go")
struct DeviceLifecycleTests {
    @Test("a device added at runtime plays the vocabulary and is announced")
    func addAtRuntime() throws {
        let fixture = EngineFixture(profiles: [])
        let log = Recorder<HapticEngine.Event>()
        fixture.engine.setEventHandler { log.append($0) }
        #expect(fixture.engine.play(.selection) == .notPlayed(.noDevice))

        let device = SimulatedDevice(profile: .dualSense)
        try fixture.engine.addOutput(.init(device: device, profile: .dualSense, name: "pad", path: "/dev/input/event7"))
        #expect(log.all == [.deviceAdded(name: "pad", path: "/dev/input/event7")])
        #expect(fixture.engine.profiles.map(\.name) == ["dualsense"])

        let origin = fixture.clock.now()
        #expect(fixture.engine.play(.impact(.heavy)) == .scheduled(feltAt: origin.advanced(by: DeviceProfile.dualSense.riseTime)))
        fixture.run(for: 1_000_000_000)
        let program = Renderer(profile: .dualSense).render(Feedback.impact(.heavy).canonicalPattern)
        let received = device.recording().map { ($0.time.nanoseconds - origin.nanoseconds, $0.command) }
        #expect(same(received, expected(program)))
    }

    @Test("a lost device is removed with a typed event; the other device keeps playing")
    func lossKeepsOthersPlaying() throws {
        let fixture = EngineFixture(profiles: [.genericRumble])
        let pad = PreparingDevice(profile: .dualSense)
        try fixture.engine.addOutput(.init(device: pad, profile: .dualSense, name: "pad", path: "/dev/input/event9"))
        let log = Recorder<HapticEngine.Event>()
        fixture.engine.setEventHandler { log.append($0) }

        #expect(fixture.engine.play(.notification(.error)).isScheduled)
        fixture.run(for: 100_000_000)
        pad.unplug()
        fixture.engine.performHousekeeping()
        #expect(log.all == [.deviceLost(name: "pad", path: "/dev/input/event9",
                                        error: .deviceLost(path: "/dev/input/event9", SystemCallError(call: "write", errno: .operationNotSupportedByDevice)))])
        #expect(fixture.engine.profiles.map(\.name) == ["generic-rumble"])
        fixture.engine.performHousekeeping()
        #expect(log.all.count == 1)  // Reported once.

        // Its player was released: the scheduler sends the lost channel its final stop, then nothing.
        fixture.run(for: 1_000_000_000)
        let padCount = pad.simulated.recording().count
        #expect(pad.simulated.recording().last?.command == .stop)

        let origin = fixture.clock.now()
        #expect(fixture.engine.play(.selection) == .scheduled(feltAt: origin.advanced(by: DeviceProfile.genericRumble.riseTime)))
        fixture.run(for: 1_000_000_000)
        let program = Renderer(profile: .genericRumble).render(Feedback.selection.canonicalPattern)
        #expect(same(Array(fixture.received(since: origin).suffix(program.commands.count)), expected(program)))
        #expect(pad.simulated.recording().count == padCount)
    }

    @Test("events also arrive as an async sequence")
    func eventStream() async throws {
        let fixture = EngineFixture(profiles: [])
        let events = fixture.engine.events
        try fixture.engine.addOutput(.simulated(.genericRumble))
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == .deviceAdded(name: "simulated generic-rumble", path: nil))
    }

    @Test("prepare hands each preparable device its program, and later calls expire unused ones")
    func prepareUploadsAndExpires() throws {
        let fixture = EngineFixture(profiles: [], configuration: .init(prepareLifetime: .seconds(2)))
        let pad = PreparingDevice(profile: .dualSense)
        try fixture.engine.addOutput(.init(device: pad, profile: .dualSense))
        #expect(pad.requests == [.gain(1)])

        let generator = ImpactFeedbackGenerator(style: .rigid, engine: fixture.engine)
        generator.prepare()
        let program = Renderer(profile: .dualSense).render(Feedback.impact(.rigid).canonicalPattern)
        let cutoff = fixture.clock.now() - .seconds(2)
        // The level at intensity 1, then the other 15 intensity steps ahead of time.
        var requests: [PreparingDevice.Request] = [.gain(1), .prepare(commands: program.commands.count)]
        requests += Array(repeating: .prepareAhead(commands: program.commands.count), count: 15)
        requests.append(.expire(unusedSince: cutoff))
        #expect(pad.requests == requests)

        fixture.clock.advance(by: .seconds(3))
        fixture.engine.performHousekeeping()
        #expect(pad.requests.last == .expire(unusedSince: cutoff + .seconds(3)))
    }

    @Test("a device added while a preparation holds gets it prepared too")
    func hotplugPreparesCurrentPreparations() throws {
        let fixture = EngineFixture(profiles: [.genericRumble])
        SelectionFeedbackGenerator(engine: fixture.engine).prepare()
        let pad = PreparingDevice(profile: .dualSense)
        try fixture.engine.addOutput(.init(device: pad, profile: .dualSense))
        let program = Renderer(profile: .dualSense).render(Feedback.selection.canonicalPattern)
        #expect(pad.requests == [.gain(1), .prepare(commands: program.commands.count)])
    }

    @Test("a hardware-gain device gets the gain set on it and unscaled levels; the others scaled levels")
    func hardwareGain() throws {
        let fixture = EngineFixture(profiles: [.genericRumble])
        let pad = PreparingDevice(profile: .genericRumble)
        try fixture.engine.addOutput(.init(device: pad, profile: .genericRumble))
        fixture.engine.gain = 0.5
        #expect(pad.requests == [.gain(1), .gain(0.5)])

        let origin = fixture.clock.now()
        #expect(fixture.engine.play(.impact(.heavy)).isScheduled)
        fixture.run(for: 1_000_000_000)
        let program = Renderer(profile: .genericRumble).render(Feedback.impact(.heavy).canonicalPattern)
        let halved = program.commands.map { command -> (Int64, ActuatorCommand) in
            if command.command == .stop { return (command.offsetNanoseconds, .stop) }
            return (command.offsetNanoseconds, DeviceProfile.genericRumble.command(intensity: command.intensity * 0.5, sharpness: command.sharpness))
        }
        #expect(same(fixture.received(0, since: origin), halved))
        let padReceived = pad.simulated.recording().map { ($0.time.nanoseconds - origin.nanoseconds, $0.command) }
        #expect(same(padReceived, expected(program)))
    }

    @Test("a removed device stops playing at once and frees nothing else")
    func removeOutput() throws {
        let fixture = EngineFixture(profiles: [])
        let device = SimulatedDevice(profile: .genericRumble)
        try fixture.engine.addOutput(.init(device: device, profile: .genericRumble, path: "/dev/input/event3"))
        #expect(fixture.engine.play(.notification(.warning)).isScheduled)
        fixture.run(for: 70_000_000)
        #expect(fixture.engine.removeOutput(path: "/dev/input/event3"))
        #expect(!fixture.engine.removeOutput(path: "/dev/input/event3"))
        fixture.run(for: 1_000_000_000)
        #expect(device.recording().last?.command == .stop)
        #expect(fixture.engine.play(.selection) == .notPlayed(.noDevice))
    }

    @Test("the engine refuses a device beyond its channel capacity with a typed error")
    func channelCapacity() throws {
        let fixture = EngineFixture(profiles: [], configuration: .init(scheduler: SchedulerConfiguration(maximumChannels: 2)))
        try fixture.engine.addOutput(.simulated())
        try fixture.engine.addOutput(.simulated())
        #expect(throws: EngineError.tooManyOutputs(maximum: 2)) { try fixture.engine.addOutput(.simulated()) }
    }

    @Test("the hotplug monitor reads event-node creations and removals, ignoring other names")
    func hotplugRecords() {
        // inotify records as the kernel writes them: wd, mask, cookie, len, then the padded name.
        var bytes: [UInt8] = []
        func record(_ mask: Int32, _ name: String) {
            for field in [UInt32(1), UInt32(mask), 0, 16] { withUnsafeBytes(of: field.littleEndian) { bytes += $0 } }
            bytes += Array(name.utf8) + Array(repeating: 0, count: 16 - name.utf8.count)
        }
        record(IN_CREATE, "event4")
        record(IN_CREATE, "js0")
        record(IN_ATTRIB, "event4")
        record(IN_DELETE, "event4")
        let changes = bytes.withUnsafeBytes { HotplugMonitor.changes(in: $0, directory: "/dev/input") }
        #expect(changes == [.appeared(path: "/dev/input/event4"), .appeared(path: "/dev/input/event4"), .disappeared(path: "/dev/input/event4")])
    }
}
