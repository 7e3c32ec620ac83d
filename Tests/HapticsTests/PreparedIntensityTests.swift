import HapticsDevices
import HapticsPatterns
import HapticsRendering
import HapticsScheduler
import HapticsTestSupport
import Testing
@testable import Haptics

@Suite("Intensity steps and what prepare uploads for them")
struct PreparedIntensityTests {
    /// The commands of `feedback` on `profile` at intensity factor `factor`, written out from the
    /// profile's mapping (not through `Program.scaled`, which the engine itself uses).
    static func commands(_ feedback: Feedback, _ profile: DeviceProfile, at factor: Float) -> [(Int64, ActuatorCommand)] {
        Renderer(profile: profile).render(feedback.canonicalPattern).commands.map { command in
            if command.command.isSilent || factor == 1 { return (command.offsetNanoseconds, command.command) }
            return (command.offsetNanoseconds, profile.command(intensity: command.intensity * factor, sharpness: command.sharpness))
        }
    }

    @Test("intensities round to the nearest 1/16, anything above 0 is a step, and a software gain is stepped again")
    func steps() {
        #expect(HapticEngine.intensityStep == 0.0625)
        #expect([0, 1e-12, 0.03, 0.5, 0.7, 0.71, 0.96, 0.97, 1].map(HapticEngine.steps) == [0, 1, 1, 8, 11, 11, 15, 16, 16])
        // 0.7 → 11/16; times a software gain of 0.5 is 5.5/16, which rounds up to 6/16.
        #expect(HapticEngine.level(step: 11, gain: 0.5, hardwareGain: false) == 0.375)
        #expect(HapticEngine.level(step: 16, gain: 0.5, hardwareGain: false) == 0.5)
        #expect(HapticEngine.level(step: 1, gain: 0.01, hardwareGain: false) == 0.0625)
        // A device with FF_GAIN scales by the gain itself: the level is the stepped intensity.
        #expect(HapticEngine.level(step: 11, gain: 0.5, hardwareGain: true) == 0.6875)
    }

    @Test("an impact at 0.7 plays at 11/16 on rumble, periodic, constant-force and simulated devices, and at 6/16 under a gain of 0.5")
    func sameStepsOnEveryDeviceKind() {
        let profiles: [DeviceProfile] = [.genericRumble, .phoneVibra, .constantForceWheel, .simulated]
        for (intensity, gain, factor) in [(0.7, 1.0, Float(0.6875)), (0.7, 0.5, 0.375), (1, 0.5, 0.5), (0.03, 1, 0.0625)] {
            let fixture = EngineFixture(profiles: profiles)
            fixture.engine.gain = gain
            let origin = fixture.clock.now()
            #expect(fixture.engine.play(.impact(.medium, intensity: intensity)).isScheduled)
            fixture.run(for: 1_000_000_000)
            for (index, profile) in profiles.enumerated() {
                // Each device starts early by its own lead time: compare from its first command on.
                let received = fixture.received(index, since: origin)
                let start = received.first?.0 ?? 0
                #expect(same(received.map { ($0.0 - start, $0.1) }, Self.commands(.impact(.medium), profile, at: factor)),
                        "\(profile.name) at \(intensity), gain \(gain): \(received)")
            }
        }
    }

    @Test("prepare uploads the level of the last intensity played, then the other 15 ahead, nearest first; the play sends the first")
    func prepareFollowsThePlayedIntensity() throws {
        let fixture = EngineFixture(profiles: [])
        let pad = PreparingDevice(profile: .dualSense)
        try fixture.engine.addOutput(.init(device: pad, profile: .dualSense))
        let generator = ImpactFeedbackGenerator(style: .medium, engine: fixture.engine)
        let program = Renderer(profile: .dualSense).render(Feedback.impact(.medium).canonicalPattern)
        func level(_ step: Int) -> [ActuatorCommand] {
            Self.commands(.impact(.medium), .dualSense, at: Float(step) / 16).map(\.1)
        }

        generator.prepare()
        // Before any play: intensity 1 first (asked for), then 15/16 down to 1/16 (ahead).
        #expect(pad.preparedPrograms.map(\.commands).map { $0.map(\.command) } == (1...16).reversed().map(level))
        #expect(pad.preparedPrograms.allSatisfy { $0.commands.map(\.offsetNanoseconds) == program.commands.map(\.offsetNanoseconds) })

        let origin = fixture.clock.now()
        #expect(generator.impactOccurred(intensity: 0.7).isScheduled)
        fixture.run(for: 1_000_000_000)
        let sent = pad.simulated.recording().map { ($0.time.nanoseconds - origin.nanoseconds, $0.command) }
        #expect(same(sent, Self.commands(.impact(.medium), .dualSense, at: 0.6875)))

        let before = pad.preparedPrograms.count
        generator.prepare()
        // 11/16 first now, then 12, 10, 13, 9, … (ties upward), down to 1.
        let order = [11, 12, 10, 13, 9, 14, 8, 15, 7, 16, 6, 5, 4, 3, 2, 1]
        #expect(pad.preparedPrograms.dropFirst(before).map { $0.commands.map(\.command) } == order.map(level))
        let count = program.commands.count
        var requests: [PreparingDevice.Request] = [.prepare(commands: count)]
        requests += Array(repeating: .prepareAhead(commands: count), count: 15)
        requests.append(.expire(unusedSince: fixture.clock.now() - .seconds(5)))
        #expect(Array(pad.requests.suffix(17)) == requests)
    }

    @Test("notifications and selections prepare their one level; a device added later gets the last-played level first")
    func fixedIntensityItemsPrepareOneLevel() throws {
        let fixture = EngineFixture(profiles: [])
        let pad = PreparingDevice(profile: .genericRumble)
        try fixture.engine.addOutput(.init(device: pad, profile: .genericRumble))
        NotificationFeedbackGenerator(engine: fixture.engine).prepare()
        SelectionFeedbackGenerator(engine: fixture.engine).prepare()
        let rendered = ([.notification(.success), .notification(.warning), .notification(.error), .selection] as [Feedback]).map {
            Renderer(profile: .genericRumble).render($0.canonicalPattern)
        }
        #expect(pad.preparedPrograms == rendered)

        let generator = ImpactFeedbackGenerator(style: .light, engine: fixture.engine)
        #expect(generator.impactOccurred(intensity: 0.25).isScheduled)
        generator.prepare()
        let late = PreparingDevice(profile: .genericRumble)
        try fixture.engine.addOutput(.init(device: late, profile: .genericRumble))
        // The late device, in vocabulary order: the notifications, the light impact at 4/16 first
        // and its other 15 levels ahead, the selection.
        #expect(late.preparedPrograms.count == 3 + 16 + 1)
        #expect(Array(late.preparedPrograms.prefix(3)) == Array(rendered.prefix(3)))
        #expect(late.preparedPrograms[3].commands.map(\.command) == Self.commands(.impact(.light), .genericRumble, at: 0.25).map(\.1))
        #expect(late.preparedPrograms.last == rendered[3])
    }
}
