import HapticsDevices
import HapticsPatterns
import HapticsRendering
import HapticsScheduler
import HapticsSystem
import HapticsTestSupport
import Testing
@testable import Haptics

/// What the kernel would say about a pad: a DualSense-like node with or without a unique id.
func padNode(_ path: String, uniq: String = "", phys: String = "usb-0000:00:14.0-2/input0",
             product: UInt16 = 0x0CE6) -> EvdevDeviceInfo {
    EvdevDeviceInfo(path: path, name: "Sony Interactive Entertainment DualSense Wireless Controller",
                    id: InputID(bus: 0x03, vendor: 0x054C, product: product, version: 0x8111),
                    physicalLocation: phys, uniqueIdentifier: uniq, forceFeedbackCodes: [.rumble], slots: 16)
}

/// A simulated pad on an event node described by `node`.
func padOutput(_ node: EvdevDeviceInfo, device: SimulatedDevice = SimulatedDevice(profile: .genericRumble)) -> HapticEngine.Output {
    HapticEngine.Output(device: device, profile: .genericRumble, name: node.name, path: node.path, eventNode: node)
}

@Suite("Devices as values")
struct HapticDeviceTests {
    @Test("a device lists its identity, SDL GUID and state")
    func identity() throws {
        let fixture = EngineFixture(profiles: [])
        let pad = try fixture.engine.addOutput(padOutput(padNode("/dev/input/event5", uniq: "a0:ab:51:00:00:01")))
        #expect(fixture.engine.devices == [pad])
        #expect(pad.id == HapticDevice.ID(rawValue: 0))
        #expect(pad.name == "Sony Interactive Entertainment DualSense Wireless Controller")
        #expect(pad.path == "/dev/input/event5")
        #expect(pad.uniqueIdentifier == "a0:ab:51:00:00:01")
        #expect(pad.inputID == InputID(bus: 0x03, vendor: 0x054C, product: 0x0CE6, version: 0x8111))
        #expect(pad.physicalLocation == "usb-0000:00:14.0-2/input0")
        #expect(pad.joystickGUIDString == "0300fd574c050000e60c000011810000")
        #expect(pad.state == .available)
        #expect(!pad.isSimulatedFallback)
        #expect(pad.settings == DeviceSettings())
        #expect(pad.profile == .genericRumble)
    }

    @Test("a selection is all devices, or a set without repeats in id order")
    func selections() {
        let a = HapticDevice.ID(rawValue: 3)
        let b = HapticDevice.ID(rawValue: 1)
        #expect(DeviceSelection.all.isAll && DeviceSelection.all.deviceIDs == nil)
        #expect(DeviceSelection([a, b, a]).deviceIDs == [b, a])
        #expect(DeviceSelection([a, a]) == DeviceSelection(a))
        #expect(DeviceSelection(a).contains(3) && !DeviceSelection(a).contains(1))
        #expect(DeviceSelection([a, b]).contains(1) && !DeviceSelection([a, b]).contains(2))
        #expect(!DeviceSelection([HapticDevice.ID]()).contains(0))
        #expect(DeviceSelection.all.contains(0) && !DeviceSelection.all.contains(-1))
    }

    @Test("a play on one device reaches it exactly and nothing reaches the other")
    func targetedPlay() throws {
        let fixture = EngineFixture(profiles: [])
        let first = SimulatedDevice(profile: .genericRumble)
        let second = SimulatedDevice(profile: .genericRumble)
        _ = try fixture.engine.addOutput(padOutput(padNode("/dev/input/event5", uniq: "pad-1"), device: first))
        let player2 = try fixture.engine.addOutput(padOutput(padNode("/dev/input/event6", uniq: "pad-2"), device: second))
        let origin = fixture.clock.now()
        #expect(fixture.engine.play(.impact(.heavy), on: player2) == .scheduled(feltAt: origin.advanced(by: 60_000_000)))
        fixture.run(for: 1_000_000_000)
        let program = Renderer(profile: .genericRumble).render(Feedback.impact(.heavy).canonicalPattern)
        #expect(same(second.recording().map { ($0.time.nanoseconds - origin.nanoseconds, $0.command) }, expected(program)))
        #expect(first.recording().isEmpty)
    }

    @Test("a generator and a pattern player made for one device play on it alone")
    func targetedGeneratorAndPlayer() throws {
        let fixture = EngineFixture(profiles: [])
        let first = SimulatedDevice(profile: .genericRumble)
        let second = SimulatedDevice(profile: .genericRumble)
        let player1 = try fixture.engine.addOutput(padOutput(padNode("/dev/input/event5", uniq: "pad-1"), device: first))
        _ = try fixture.engine.addOutput(padOutput(padNode("/dev/input/event6", uniq: "pad-2"), device: second))
        let generator = SelectionFeedbackGenerator(engine: fixture.engine, devices: [player1])
        let origin = fixture.clock.now()
        #expect(generator.selectionChanged().isScheduled)
        fixture.run(for: 500_000_000)
        let tick = Renderer(profile: .genericRumble).render(Feedback.selection.canonicalPattern)
        #expect(same(first.recording().map { ($0.time.nanoseconds - origin.nanoseconds, $0.command) }, expected(tick)))
        #expect(second.recording().isEmpty)

        let pattern = Feedback.notification(.success).canonicalPattern
        let player = try fixture.engine.makePlayer(pattern: pattern, on: [player1])
        #expect(player.programs.count == 1)
        let start = fixture.clock.now()
        #expect(player.start().isScheduled)
        fixture.run(for: 1_000_000_000)
        let played = first.recording().filter { $0.time >= start }.map { ($0.time.nanoseconds - start.nanoseconds, $0.command) }
        #expect(same(played, expected(Renderer(profile: .genericRumble).render(pattern))))
        #expect(second.recording().isEmpty)
    }

    @Test("a selection none of whose devices is plugged in says noDevice; one all switched off says disabled")
    func selectionReasons() throws {
        let fixture = EngineFixture(profiles: [])
        let pad = try fixture.engine.addOutput(padOutput(padNode("/dev/input/event5", uniq: "pad-1")))
        #expect(fixture.engine.play(.selection, on: DeviceSelection([HapticDevice.ID(rawValue: 7)])) == .notPlayed(.noDevice))
        fixture.engine.setEnabled(false, for: pad)
        #expect(fixture.engine.play(.selection, on: pad) == .notPlayed(.disabled))
        #expect(fixture.engine.play(.selection) == .notPlayed(.unsupported))
        #expect(fixture.engine.device(pad.id)?.settings.isEnabled == false)
        fixture.engine.setEnabled(true, for: pad)
        #expect(fixture.engine.play(.selection, on: pad).isScheduled)
    }

    @Test("switching a device off stops what plays on it now")
    func disablingStops() throws {
        let fixture = EngineFixture(profiles: [])
        let device = SimulatedDevice(profile: .genericRumble)
        let pad = try fixture.engine.addOutput(padOutput(padNode("/dev/input/event5", uniq: "pad-1"), device: device))
        let hum = Pattern(events: [PatternEvent(kind: .hapticContinuous, time: 0, duration: 3,
                                                parameters: EventParameters(hapticIntensity: 1, hapticSharpness: 0.5))])
        let player = try fixture.engine.makePlayer(pattern: hum)
        #expect(player.setLooping(true))
        #expect(player.start().isScheduled)
        fixture.run(for: 200_000_000)
        #expect(device.recording().last?.command.isSilent == false)
        fixture.engine.setEnabled(false, for: pad)
        fixture.run(for: 2_000_000)
        let stoppedAt = device.recording().count
        #expect(device.recording().last?.command == .stop)
        fixture.run(for: 2_000_000_000)
        #expect(device.recording().count == stoppedAt)
    }

    @Test("a device's gain scales its plays as an intensity would; out-of-range gains are refused")
    func deviceGain() throws {
        let fixture = EngineFixture(profiles: [])
        let first = SimulatedDevice(profile: .genericRumble)
        let second = SimulatedDevice(profile: .genericRumble)
        let player1 = try fixture.engine.addOutput(padOutput(padNode("/dev/input/event5", uniq: "pad-1"), device: first))
        let player2 = try fixture.engine.addOutput(padOutput(padNode("/dev/input/event6", uniq: "pad-2"), device: second))
        try fixture.engine.setGain(0.5, for: player1)
        fixture.engine.gain = 0.8
        #expect(fixture.engine.play(.impact(.heavy), on: player1).isScheduled)
        #expect(fixture.engine.play(.impact(.heavy, intensity: 0.5), on: player2).isScheduled)
        fixture.run(for: 1_000_000_000)
        let heard = first.recording().map { ($0.time.nanoseconds, $0.command) }
        #expect(heard.contains { !$0.1.isSilent })
        #expect(same(heard, second.recording().map { ($0.time.nanoseconds, $0.command) }))
        #expect(throws: EngineError.gainOutOfRange(1.5)) { try fixture.engine.setGain(1.5, for: player1) }
        #expect(throws: EngineError.self) { try fixture.engine.setGain(.nan, for: .all) }
        #expect(fixture.engine.settings(for: player1.id)?.gain == 0.5)
        #expect(EngineError.gainOutOfRange(1.5).description == "device gain 1.5 is outside 0…1")
    }

    @Test("the same pad plugged in again is the same device, matched by uniq, with its settings")
    func replugByUniq() throws {
        let fixture = EngineFixture(profiles: [])
        let pad = try fixture.engine.addOutput(padOutput(padNode("/dev/input/event5", uniq: "a0:ab:51:00:00:01")))
        try fixture.engine.setGain(0.25, for: pad)
        fixture.engine.handle(.disappeared(path: "/dev/input/event5")) { _ throws(DeviceError) in throw .noForceFeedback(path: "") }
        let lost = try #require(fixture.engine.device(pad.id))
        guard case .lost = lost.state else { Issue.record("\(lost.state)"); return }
        fixture.run(for: 1_000_000)
        // Another node number, another port: the unique id decides.
        let back = try fixture.engine.addOutput(padOutput(padNode("/dev/input/event9", uniq: "a0:ab:51:00:00:01", phys: "usb-2")))
        #expect(back.id == pad.id)
        #expect(back.settings.gain == 0.25)
        #expect(back.path == "/dev/input/event9")
        #expect(fixture.engine.devices.count == 1)
    }

    @Test("without a uniq, ids and physical location together match; another port is another device")
    func replugByLocation() throws {
        let fixture = EngineFixture(profiles: [])
        let pad = try fixture.engine.addOutput(padOutput(padNode("/dev/input/event5", phys: "usb-1")))
        fixture.engine.handle(.disappeared(path: "/dev/input/event5")) { _ throws(DeviceError) in throw .noForceFeedback(path: "") }
        fixture.run(for: 1_000_000)
        let other = try fixture.engine.addOutput(padOutput(padNode("/dev/input/event6", phys: "usb-2")))
        #expect(other.id != pad.id)
        let again = try fixture.engine.addOutput(padOutput(padNode("/dev/input/event7", phys: "usb-1")))
        #expect(again.id == pad.id)
    }

    @Test("channels are reused: 50 reconnects on an engine of one channel, each on the same channel")
    func channelReuse() throws {
        let fixture = EngineFixture(profiles: [], configuration: .init(scheduler: SchedulerConfiguration(maximumChannels: 1)))
        let pad = try fixture.engine.addOutput(padOutput(padNode("/dev/input/event5", uniq: "pad-1")))
        try fixture.engine.setGain(0.5, for: pad)
        let opener: HapticEngine.DeviceOpener = { path throws(DeviceError) in padOutput(padNode(path, uniq: "pad-1")) }
        for cycle in 0..<50 {
            fixture.engine.handle(.disappeared(path: "/dev/input/event5"), opener: opener)
            #expect(fixture.engine.play(.selection) == .notPlayed(.noDevice))
            fixture.run(for: 1_000_000)
            fixture.engine.handle(.appeared(path: "/dev/input/event5"), opener: opener)
            let back = try #require(fixture.engine.devices.first, "cycle \(cycle)")
            #expect(back.id == pad.id && back.state == .available && back.settings.gain == 0.5, "cycle \(cycle)")
            #expect(fixture.engine.channel(of: pad.id) == ChannelID(rawValue: 0), "cycle \(cycle)")
            #expect(fixture.engine.play(.selection, on: back).isScheduled, "cycle \(cycle)")
            fixture.run(for: 200_000_000)
        }
        #expect(fixture.engine.devices.count == 1)
    }

    @Test("a stale player never reaches the device that takes over its channel")
    func staleSubmission() throws {
        let fixture = EngineFixture(profiles: [], configuration: .init(scheduler: SchedulerConfiguration(maximumChannels: 1)))
        let old = SimulatedDevice(profile: .genericRumble)
        _ = try fixture.engine.addOutput(padOutput(padNode("/dev/input/event5", uniq: "pad-1"), device: old))
        let player = try fixture.engine.makePlayer(pattern: Feedback.notification(.error).canonicalPattern)
        fixture.engine.handle(.disappeared(path: "/dev/input/event5")) { _ throws(DeviceError) in throw .noForceFeedback(path: "") }
        fixture.run(for: 1_000_000)
        let new = SimulatedDevice(profile: .genericRumble)
        _ = try fixture.engine.addOutput(padOutput(padNode("/dev/input/event6", uniq: "pad-2"), device: new))
        #expect(fixture.engine.channel(of: HapticDevice.ID(rawValue: 1)) == ChannelID(rawValue: 0))
        // The old player's scheduler players were released with the old device.
        _ = player.start()
        _ = player.setLooping(true)
        fixture.run(for: 1_000_000_000)
        #expect(new.recording().isEmpty)
    }

    @Test("a freed channel serves a device of another profile, rendered for that profile")
    func channelForAnotherProfile() throws {
        let fixture = EngineFixture(profiles: [], configuration: .init(scheduler: SchedulerConfiguration(maximumChannels: 1)))
        _ = try fixture.engine.addOutput(padOutput(padNode("/dev/input/event5", uniq: "pad-1")))
        fixture.engine.handle(.disappeared(path: "/dev/input/event5")) { _ throws(DeviceError) in throw .noForceFeedback(path: "") }
        // Not yet let go by the scheduler: the only channel is not free.
        #expect(throws: EngineError.tooManyOutputs(maximum: 1)) {
            try fixture.engine.addOutput(.init(device: SimulatedDevice(profile: .dualSense), profile: .dualSense))
        }
        fixture.run(for: 1_000_000)
        let device = SimulatedDevice(profile: .dualSense)
        let pad = try fixture.engine.addOutput(.init(device: device, profile: .dualSense, name: "other pad"))
        #expect(fixture.engine.channel(of: pad.id) == ChannelID(rawValue: 0))
        let origin = fixture.clock.now()
        #expect(fixture.engine.play(.impact(.medium, intensity: 0.5), on: pad) == .scheduled(feltAt: origin.advanced(by: 30_000_000)))
        fixture.run(for: 1_000_000_000)
        // The half intensity is re-mapped through the DualSense profile, as on a channel made for it.
        let reference = EngineFixture(profiles: [.dualSense])
        let start = reference.clock.now()
        _ = reference.engine.play(.impact(.medium, intensity: 0.5))
        reference.run(for: 1_000_000_000)
        #expect(device.recording().contains { !$0.command.isSilent })
        #expect(same(device.recording().map { ($0.time.nanoseconds - origin.nanoseconds, $0.command) }, reference.received(since: start)))
    }

    @Test("a device beyond the channels is refused while every channel serves a device")
    func channelsInUse() throws {
        let fixture = EngineFixture(profiles: [], configuration: .init(scheduler: SchedulerConfiguration(maximumChannels: 1)))
        _ = try fixture.engine.addOutput(padOutput(padNode("/dev/input/event5", uniq: "pad-1")))
        #expect(throws: EngineError.tooManyOutputs(maximum: 1)) {
            try fixture.engine.addOutput(padOutput(padNode("/dev/input/event6", uniq: "pad-2")))
        }
    }

    @Test("a profile by name renders the device anew and is kept across a re-plug")
    func profileByName() throws {
        let fixture = EngineFixture(profiles: [])
        let device = SimulatedDevice(profile: .genericRumble)
        let pad = try fixture.engine.addOutput(padOutput(padNode("/dev/input/event5", uniq: "pad-1"), device: device))
        try fixture.engine.setProfile(named: "dualsense", for: pad)
        var expectedProfile = DeviceProfile.dualSense
        expectedProfile.limits = DeviceProfile.genericRumble.limits
        #expect(fixture.engine.device(pad.id)?.profile == expectedProfile)
        fixture.run(for: 1_000_000)
        let origin = fixture.clock.now()
        #expect(fixture.engine.play(.impact(.heavy), on: pad) == .scheduled(feltAt: origin.advanced(by: 30_000_000)))
        fixture.run(for: 1_000_000_000)
        let program = Renderer(profile: expectedProfile).render(Feedback.impact(.heavy).canonicalPattern)
        let played = device.recording().filter { $0.time >= origin }.map { ($0.time.nanoseconds - origin.nanoseconds, $0.command) }
        #expect(same(played, expected(program)))
        #expect(throws: EngineError.unknownProfile(name: "ps9", available: DeviceProfile.builtins.map(\.name))) {
            try fixture.engine.setProfile(named: "ps9", for: pad)
        }
        fixture.engine.handle(.disappeared(path: "/dev/input/event5")) { _ throws(DeviceError) in throw .noForceFeedback(path: "") }
        fixture.run(for: 1_000_000)
        let back = try fixture.engine.addOutput(padOutput(padNode("/dev/input/event5", uniq: "pad-1")))
        #expect(back.profile == expectedProfile)
        #expect(back.settings.profile == .dualSense)
    }

    @Test("a profile change on an engine without a spare channel reuses the device's own, with the realtime thread")
    func profileChangeInPlace() throws {
        let device = SimulatedDevice(profile: .genericRumble)
        let engine = HapticEngine(outputs: [padOutput(padNode("/dev/input/event5", uniq: "pad-1"), device: device)],
                                  configuration: .init(scheduler: SchedulerConfiguration(maximumChannels: 1)))
        try engine.start()
        defer { engine.stop() }
        let pad = try #require(engine.devices.first)
        try engine.setProfile(named: "dualsense", for: pad)
        #expect(engine.device(pad.id)?.profile?.name == "dualsense")
        #expect(engine.channel(of: pad.id) == ChannelID(rawValue: 0))
        #expect(engine.play(.impact(.heavy), on: pad).isScheduled)
        // A manually driven engine has no thread to let go: the change is refused, nothing changes.
        let fixture = EngineFixture(profiles: [], configuration: .init(scheduler: SchedulerConfiguration(maximumChannels: 1)))
        let other = try fixture.engine.addOutput(padOutput(padNode("/dev/input/event6", uniq: "pad-2")))
        #expect(throws: EngineError.tooManyOutputs(maximum: 1)) { try fixture.engine.setProfile(named: "dualsense", for: other) }
        #expect(fixture.engine.device(other.id)?.profile == .genericRumble)
    }

    @Test("a profile file with a mistake changes nothing and says where")
    func profileFileError() throws {
        let folder = try TemporaryFolder(prefix: "haptics-profile")
        defer { folder.remove() }
        let path = folder.path + "/pad.profile"
        try folder.write("base = dualsense\nrise-time-ms = 2000\n", to: "pad.profile")
        let fixture = EngineFixture(profiles: [])
        let pad = try fixture.engine.addOutput(padOutput(padNode("/dev/input/event5", uniq: "pad-1")))
        #expect(throws: EngineError.profileFile(DeviceProfileFileError(
            file: path, line: 2, column: 16, message: "'rise-time-ms' is 2000, outside 0…1000 ms"))) {
            try fixture.engine.loadProfile(contentsOf: path, for: pad)
        }
        #expect(fixture.engine.device(pad.id)?.profile == .genericRumble)
        try folder.write("base = dualsense\nrise-time-ms = 20\n", to: "pad.profile")
        try fixture.engine.loadProfile(contentsOf: path, for: pad)
        #expect(fixture.engine.device(pad.id)?.profile?.riseTime == .milliseconds(20))
    }

    @Test("a node without permission is listed with the reason and raises an event once")
    func permissionDenied() async throws {
        let fixture = EngineFixture(profiles: [])
        var events = fixture.engine.events.makeAsyncIterator()
        let refuse: HapticEngine.DeviceOpener = { path throws(DeviceError) in throw .permissionDenied(path: path) }
        fixture.engine.handle(.appeared(path: "/nonexistent/event7"), opener: refuse)
        fixture.engine.handle(.appeared(path: "/nonexistent/event7"), opener: refuse)
        let error = DeviceError.permissionDenied(path: "/nonexistent/event7")
        #expect(await events.next() == .deviceUnavailable(name: "/nonexistent/event7", path: "/nonexistent/event7", error: error))
        let listed = try #require(fixture.engine.devices.first)
        #expect(listed.state == .unavailable(error))
        #expect(listed.state.description.contains("70-haptics.rules"))
        #expect(fixture.engine.play(.selection) == .notPlayed(.noDevice))
        // Unplugged while locked: lost, and back as itself when it returns.
        fixture.engine.handle(.disappeared(path: "/nonexistent/event7"), opener: refuse)
        #expect(fixture.engine.devices.first?.state == .lost(.deviceLost(
            path: "/nonexistent/event7", SystemCallError(call: "IN_DELETE", errno: .operationNotSupportedByDevice))))
        fixture.engine.handle(.appeared(path: "/nonexistent/event7"), opener: refuse)
        #expect(await events.next() == .deviceUnavailable(name: "/nonexistent/event7", path: "/nonexistent/event7", error: error))
        #expect(fixture.engine.devices.map(\.id) == [listed.id])
        // Permission granted: the same node opens and is the same device.
        fixture.engine.handle(.appeared(path: "/nonexistent/event7")) { path throws(DeviceError) in
            padOutput(padNode(path, uniq: "pad-1"))
        }
        #expect(await events.next() == .deviceAdded(name: "Sony Interactive Entertainment DualSense Wireless Controller",
                                                   path: "/nonexistent/event7"))
        #expect(fixture.engine.devices.map(\.id) == [listed.id])
        #expect(fixture.engine.devices.first?.state == .available)
    }

    @Test("the fallback to a simulated device is reported, and its plays say nothing is felt")
    func fallback() async throws {
        let folder = try TemporaryFolder(prefix: "haptics-fallback")
        defer { folder.remove() }
        let engine = HapticEngine(discovering: folder.path)
        engine.startManuallyDriven()
        var events = engine.events.makeAsyncIterator()
        #expect(await events.next() == .fallbackToSimulatedDevice)
        #expect(engine.devices.map(\.isSimulatedFallback) == [true])
        #expect(engine.play(.selection) == .notPlayed(.noRealDevice))
        // Rumble and motor levels say so too; stopping them is no play, and says nothing.
        #expect(engine.rumble(low: 1, high: 0.5, duration: .milliseconds(200)) == .notPlayed(.noRealDevice))
        #expect(engine.setMotorLevels(low: 0.5, high: 0) == .notPlayed(.noRealDevice))
        #expect(engine.setMotorLevels(low: 0, high: 0).isScheduled)
        #expect(SilenceReason.noRealDevice.description == "only the simulated fallback device plays: nothing is felt")
    }
}

@Suite("Finding a device by any of its nodes")
struct DeviceByPathTests {
    /// Two identical pads (no unique id) on event5/hidraw3 and event6/hidraw4, and a uinput device.
    func fixture() throws -> (EngineFixture, FakeSysfs, [HapticDevice]) {
        let sysfs = try FakeSysfs()
        try sysfs.addPad(hid: sysfs.hidDevice("0003:054C:0CE6.0001", port: 2), input: "input7", event: "event5", joystick: "js0", hidraw: "hidraw3")
        try sysfs.addPad(hid: sysfs.hidDevice("0003:054C:0CE6.0002", port: 3), input: "input8", event: "event6", joystick: "js1", hidraw: "hidraw4")
        try sysfs.addUInputDevice(input: "input9", event: "event9")
        let fixture = EngineFixture(profiles: [])
        let pads = try ["event5", "event6", "event9"].enumerated().map { index, node in
            try fixture.engine.addOutput(padOutput(padNode("/dev/input/\(node)", phys: "usb-0000:00:14.0-\(index)/input3")))
        }
        return (fixture, sysfs, pads)
    }

    @Test("the event node, the hidraw node and the joystick node each find their own pad")
    func eachNode() throws {
        let (fixture, sysfs, pads) = try fixture()
        defer { sysfs.remove() }
        let engine = fixture.engine
        #expect(engine.device(atPath: "/dev/input/event5", sysfs: sysfs.root)?.id == pads[0].id)
        #expect(engine.device(atPath: "/dev/hidraw3", sysfs: sysfs.root)?.id == pads[0].id)
        #expect(engine.device(atPath: "/dev/input/js0", sysfs: sysfs.root)?.id == pads[0].id)
        #expect(engine.device(atPath: "/dev/input/event6", sysfs: sysfs.root)?.id == pads[1].id)
        #expect(engine.device(atPath: "/dev/hidraw4", sysfs: sysfs.root)?.id == pads[1].id)
        #expect(engine.device(atPath: "/dev/input/js1", sysfs: sysfs.root)?.id == pads[1].id)
        #expect(engine.device(atPath: "/dev/input/event9", sysfs: sysfs.root)?.id == pads[2].id)
    }

    @Test("a node of no device of the engine finds nothing")
    func unknownNode() throws {
        let (fixture, sysfs, _) = try fixture()
        defer { sysfs.remove() }
        #expect(fixture.engine.device(atPath: "/dev/hidraw7", sysfs: sysfs.root) == nil)
        #expect(fixture.engine.device(atPath: "/dev/input/event12", sysfs: sysfs.root) == nil)
        #expect(fixture.engine.device(atPath: "", sysfs: sysfs.root) == nil)
    }

    @Test("a device lists the force-feedback codes and effect slots of its node")
    func capabilities() throws {
        let fixture = EngineFixture(profiles: [])
        let node = EvdevDeviceInfo(path: "/dev/input/event5", name: "pad", id: InputID(bus: 3, vendor: 1, product: 2, version: 3),
                                   physicalLocation: "", uniqueIdentifier: "", forceFeedbackCodes: [.rumble, .periodic, .gain], slots: 16)
        let pad = try fixture.engine.addOutput(padOutput(node))
        #expect(pad.forceFeedbackCodes == [.rumble, .periodic, .gain])
        #expect(pad.effectSlots == 16)
        let simulated = try fixture.engine.addOutput(.simulated(.genericRumble))
        #expect(simulated.forceFeedbackCodes == [])
        #expect(simulated.effectSlots == 0)
    }
}
