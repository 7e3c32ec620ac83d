import Foundation
import HapticsDevices
import HapticsScheduler
import Testing
@testable import Haptics
import HapticsSystem
import HapticsTestSupport

@Suite("Hotplug through inotify")
struct HotplugEngineTests {
    @Test("a new event node is opened and added; its removal is a typed loss; other names are ignored")
    func nodesComeAndGo() async throws {
        let folder = try TemporaryFolder(prefix: "haptics-hotplug")
        defer { folder.remove() }
        let directory = folder.path

        let fixture = EngineFixture(profiles: [])
        var events = fixture.engine.events.makeAsyncIterator()
        // The host has no evdev devices: every event node here opens as a simulated rumble pad.
        try fixture.engine.watchForDevices(in: directory) { path in
            HapticEngine.Output(device: SimulatedDevice(profile: .genericRumble), profile: .genericRumble, name: "pad", path: path)
        }
        defer { fixture.engine.stop() }

        // Not an event node: no event. The event node that follows is the first thing reported.
        #expect(FileManager.default.createFile(atPath: directory + "/js0", contents: nil))
        #expect(FileManager.default.createFile(atPath: directory + "/event3", contents: nil))
        #expect(await events.next() == .deviceAdded(name: "pad", path: directory + "/event3"))
        #expect(fixture.engine.outputs.map(\.path) == [directory + "/event3"])
        #expect(fixture.engine.play(.selection).isScheduled)

        try FileManager.default.removeItem(atPath: directory + "/js0")
        try FileManager.default.removeItem(atPath: directory + "/event3")
        #expect(await events.next() == .deviceLost(
            name: "pad", path: directory + "/event3",
            error: .deviceLost(path: directory + "/event3", SystemCallError(call: "IN_DELETE", errno: .operationNotSupportedByDevice))))
        #expect(fixture.engine.outputs.isEmpty)
        #expect(fixture.engine.play(.selection) == .notPlayed(.noDevice))
    }

    @Test("an engine discovering a folder without force-feedback devices plays on a simulated device")
    func discoveringFallsBackToSimulated() throws {
        let folder = try TemporaryFolder(prefix: "haptics-discover")
        defer { folder.remove() }
        let directory = folder.path
        // A regular file named like an event node is not an input device (libevdev_new_from_fd: ENOTTY).
        #expect(FileManager.default.createFile(atPath: directory + "/event0", contents: Data([1, 2, 3])))
        let engine = HapticEngine(discovering: directory)
        #expect(engine.outputs.map(\.name) == ["simulated"])
        #expect(engine.outputs.map(\.path) == [nil])
        #expect(HapticEngine.discoverOutputs(in: directory).isEmpty)
    }
}
