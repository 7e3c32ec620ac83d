import HapticsPatterns

/// A reproducible stream of numbers from one seed (SplitMix64): the same seed gives the same game
/// on every machine.
struct SoakRandom {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<count`.
    mutating func below(_ count: Int) -> Int { Int(next() % UInt64(count)) }

    /// A level in 0…1 in steps of 1/8, so that a game reads the same when printed.
    mutating func level() -> Double { Double(below(9)) / 8 }
}

/// One randomized game: what a game does to an engine over its devices, then how it ends.
struct SoakGame: CustomStringConvertible {
    enum Step: CustomStringConvertible {
        /// `engine.play` of the vocabulary's item at `index`.
        case play(index: Int)
        /// `engine.rumble` for `milliseconds`.
        case rumble(low: Double, high: Double, milliseconds: Int)
        /// `engine.setMotorLevels`: held until changed.
        case holdLevels(low: Double, high: Double)
        /// A looping pattern player started (a new one each time).
        case startLoop
        /// An intensity sent to the looping players.
        case sendIntensity(Double)
        /// Every looping player stopped.
        case stopLoops
        /// `engine.gain`.
        case gain(Double)
        /// `engine.isEnabled`.
        case enabled(Bool)
        /// `engine.isApplicationActive`.
        case applicationActive(Bool)
        /// The game waits.
        case pause(milliseconds: Int)
        /// Another game, a C program with an engine of its own on the same pads, rumbles them and
        /// is killed with SIGKILL `killAfter` ms after its rumble started.
        case killedGame(low: Double, high: Double, milliseconds: Int, killAfter: Int)
        /// The DualSense unplugged mid-play; a new one plugged in and added to the engine.
        case replugPad
        /// Trigger effects on the DualSense: an index into `SoakGame.triggerEffects` for each side
        /// (`nil`: that side as it is).
        case triggers(left: Int?, right: Int?)

        var description: String {
            switch self {
            case let .play(index): return "play \(Feedback.vocabulary[index])"
            case let .rumble(low, high, milliseconds): return "rumble \(low)/\(high) \(milliseconds) ms"
            case let .holdLevels(low, high): return "hold \(low)/\(high)"
            case .startLoop: return "start loop"
            case let .sendIntensity(value): return "intensity \(value)"
            case .stopLoops: return "stop loops"
            case let .gain(value): return "gain \(value)"
            case let .enabled(value): return "enabled \(value)"
            case let .applicationActive(value): return "active \(value)"
            case let .pause(milliseconds): return "pause \(milliseconds) ms"
            case let .killedGame(low, high, milliseconds, killAfter):
                return "a C game rumbles \(low)/\(high) \(milliseconds) ms, killed after \(killAfter) ms"
            case .replugPad: return "pad unplugged and another plugged in"
            case let .triggers(left, right):
                return "triggers \(left.map { SoakGame.triggerEffects[$0] } ?? "-")/\(right.map { SoakGame.triggerEffects[$0] } ?? "-")"
            }
        }
    }

    /// How the game lets go of the engine.
    enum Ending: CaseIterable {
        /// `engine.stop()` from the game's thread, then the engine dropped.
        case stop
        /// `engine.stop()` from another thread while the game's thread still plays.
        case stopFromAnotherThread
        /// The engine dropped (with its players) without a stop.
        case drop
    }

    let seed: UInt64
    let steps: [Step]
    let ending: Ending

    init(seed: UInt64) {
        var random = SoakRandom(seed: seed)
        self.seed = seed
        var steps: [Step] = []
        for _ in 0..<(4 + random.below(12)) {
            // Each of the twelve plain steps comes twice as often as a killed game or a re-plug,
            // which cost a process or a pad's probe.
            let pick = random.below(28)
            switch pick {
            case 26, 27:
                let left = random.below(3) == 0 ? nil : random.below(Self.triggerEffects.count)
                steps.append(.triggers(left: left, right: left == nil || random.below(2) == 0 ? random.below(Self.triggerEffects.count) : nil))
                continue
            case 24:
                let milliseconds = 100 * (1 + random.below(10))
                steps.append(.killedGame(low: random.level(), high: random.level(), milliseconds: milliseconds,
                                         killAfter: 10 * random.below(2 * milliseconds / 10)))
                continue
            case 25:
                steps.append(.replugPad)
                continue
            default: break
            }
            switch pick / 2 {
            case 0, 1: steps.append(.play(index: random.below(Feedback.vocabulary.count)))
            case 2: steps.append(.rumble(low: random.level(), high: random.level(), milliseconds: 20 * (1 + random.below(25))))
            case 3: steps.append(.holdLevels(low: random.level(), high: random.level()))
            case 4: steps.append(.startLoop)
            case 5: steps.append(.sendIntensity(random.level()))
            case 6: steps.append(.stopLoops)
            case 7: steps.append(.gain(random.level()))
            case 8: steps.append(.enabled(random.below(4) != 0))
            case 9: steps.append(.applicationActive(random.below(4) != 0))
            default: steps.append(.pause(milliseconds: 5 * random.below(30)))
            }
        }
        self.steps = steps
        ending = Ending.allCases[random.below(Ending.allCases.count)]
    }

    /// The trigger effects a game sets, in the text form.
    static let triggerEffects = ["off", "feedback:3,5", "weapon:2,6,8", "vibration:4,6,30", "bow:1,4,8,5", "machine:1,9,7,7,40,5"]

    var description: String { "seed \(seed): \(steps.map(\.description).joined(separator: ", ")); ends by \(ending)" }
}
