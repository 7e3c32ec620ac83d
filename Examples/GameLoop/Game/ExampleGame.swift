import Glibc
import Haptics

/// A small two-player game's haptics, frame by frame, the way a game loop drives the engine: 60
/// frames a second, player 1 and player 2 each on their own pad, the vocabulary on UI events, an
/// engine hum that follows player 1's accelerator, which stiffens on a DualSense (adaptive
/// triggers), and a hit rumble on player 2's pad.
///
/// The players' input is scripted (`frame(_:)` says what happens at each frame), so the same run
/// plays on simulated pads (`haptics-example-game`) and on the virtual pads of the kernel tests,
/// where what each pad received is checked.
public final class ExampleGame {
    /// The loop's rate.
    public static let framesPerSecond = 60
    /// How many frames the script lasts: 200, 3⅓ s.
    public static let scriptFrames = 200

    public let engine: HapticEngine
    /// Player 1's pad and player 2's.
    public let player1: HapticDevice
    public let player2: HapticDevice
    /// Player 1's engine hum: a looping pattern whose intensity the accelerator sets each frame.
    private let hum: HapticPatternPlayer
    /// Player 2's hits, prepared so that each is one write on an evdev pad.
    private let hits: ImpactFeedbackGenerator
    /// Player 1's adaptive triggers, when the pad has them (a DualSense).
    private let triggers: AdaptiveTriggers?
    /// What happened, a line per event: the frame, what the game did, what the engine said.
    public private(set) var log: [String] = []

    /// A steady, low (sharpness 0.2) one-second tone at full intensity, looped: the accelerator
    /// scales it through `HapticIntensityControl`.
    public static let humPattern = Pattern(events: [
        PatternEvent(kind: .hapticContinuous, time: 0, duration: 1,
                     parameters: EventParameters(hapticIntensity: 1, hapticSharpness: 0.2)),
    ])

    /// Sets the game up on the engine's first two available devices.
    public init(engine: HapticEngine) throws {
        let pads = engine.devices.filter(\.state.isAvailable)
        guard pads.count >= 2 else { throw ExampleGameError.needsTwoPads(found: pads.count) }
        self.engine = engine
        player1 = pads[0]
        player2 = pads[1]
        hum = try engine.makePlayer(pattern: Self.humPattern, on: DeviceSelection(player1))
        hits = ImpactFeedbackGenerator(style: .heavy, engine: engine, devices: DeviceSelection(player2))
        // Opened while the game loads: it finds the pad's hidraw node and opens it.
        triggers = player1.hasAdaptiveTriggers ? try AdaptiveTriggers(device: player1) : nil
    }

    /// Player 1's accelerator at a frame of the script, 0…1: pressed from frame 30, all the way
    /// down by frame 90, let go at frame 150.
    public static func throttle(atFrame frame: Int) -> Double {
        guard frame >= 30, frame < 150 else { return 0 }
        return min(1, Double(frame - 30) / 60)
    }

    /// What the game does at `frame`: the events of the script, and every frame the hum's level.
    public func frame(_ frame: Int) {
        switch frame {
        case 0:
            note(frame, "menu: focus moves", engine.play(.selection))
        case 20:
            note(frame, "menu: game starts", engine.play(.notification(.success)))
            hits.prepare()
        case 30:
            _ = hum.setLooping(true)
            note(frame, "player 1 presses the accelerator: hum starts", hum.start())
            if let triggers {
                // Resistance from zone 2 on, strength 4 of 8: the accelerator's spring.
                note(frame, "player 1's accelerator stiffens") {
                    try triggers.setEffects(left: nil, right: .feedback(zone: 2, strength: 4))
                }
            }
        case 90:
            note(frame, "player 2 is hit: rumble 150 ms",
                 engine.rumble(low: 1, high: 0.4, duration: .milliseconds(150), on: player2))
        case 120:
            note(frame, "player 2 is hit again", hits.impactOccurred(intensity: 0.7))
        case 150:
            _ = hum.stop()
            log.append("frame \(frame): player 1 lets go: hum stops")
            if let triggers { note(frame, "player 1's accelerator eases") { try triggers.reset() } }
        case 170:
            note(frame, "game over: player 1 wins", engine.play(.notification(.success), on: player1))
            note(frame, "game over: player 2 loses", engine.play(.notification(.warning), on: player2))
        default:
            break
        }
        if (30..<150).contains(frame) {
            // Every frame, like a game's update: one lock-free submission.
            _ = try? hum.send(.hapticIntensityControl, value: Self.throttle(atFrame: frame))
        }
    }

    /// Runs the script at 60 frames a second on the monotonic clock (absolute deadlines, so a slow
    /// frame does not shift the ones after it), then stops the hum and sets the triggers off.
    public func run(frames: Int = ExampleGame.scriptFrames) {
        let period = 1_000_000_000 / Int64(Self.framesPerSecond)
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        for index in 0..<frames {
            frame(index)
            let next = Int64(deadline.tv_nsec) + period
            deadline.tv_sec += Int(next / 1_000_000_000)
            deadline.tv_nsec = Int(next % 1_000_000_000)
            while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, nil) == EINTR {}
        }
        _ = hum.stop()
        triggers?.close()
    }

    private func note(_ frame: Int, _ what: String, _ change: () throws -> Void) {
        do {
            try change()
            log.append("frame \(frame): \(what): set")
        } catch {
            log.append("frame \(frame): \(what): not set (\(error))")
        }
    }

    private func note(_ frame: Int, _ what: String, _ outcome: PlaybackOutcome) {
        switch outcome {
        case .scheduled: log.append("frame \(frame): \(what): played")
        case let .notPlayed(reason): log.append("frame \(frame): \(what): not played (\(reason))")
        }
    }
}

/// Why the example game cannot run.
public enum ExampleGameError: Error, CustomStringConvertible {
    /// It needs a pad for each player.
    case needsTwoPads(found: Int)

    public var description: String {
        switch self {
        case let .needsTwoPads(found): return "the game needs two available pads, found \(found)"
        }
    }
}
